import CourseClock
import Synchronization
import Testing

struct PatienceTests {
  @Test func aTaskWithNothingToWaitForFinishesOnItsOwn() async {
    let task = Task { 42 }
    #expect(await finishesOnItsOwn(task), "a task that only returns a value must finish within the patience bound")
  }

  /// A task that would spin until cancelled is given up on, and cancelled when asked.
  @Test func aTaskThatNeverEndsRunsOutOfPatienceAndIsCancelled() async {
    let task = Task {
      while !Task.isCancelled { await Task.yield() }
      return Task.isCancelled
    }
    #expect(!(await finishesOnItsOwn(task, cancelling: true)), "a task that never ends must run out of patience")
    #expect(await task.value, "finishesOnItsOwn(_:cancelling: true) must cancel the task it gave up on")
  }

  @Test func aBoundedCheckGivesItsValue() async {
    let value = await boundedCheck { () async -> Int in
      await Task.yield()
      return 7
    }
    #expect(value == 7, "a check that finishes must give its value, got \(String(describing: value))")
  }

  /// A check that never returns, as a learner's `load()` awaiting a continuation
  /// nobody resumes: nil after the bound, and the check is cancelled.
  @Test func aBoundedCheckThatNeverReturnsGivesNilAndIsCancelled() async {
    let cancelled = Signal()
    let value = await boundedCheck(rounds: 1) { () async -> Int in
      await withTaskCancellationHandler {
        while !Task.isCancelled { await Task.yield() }
        return 0
      } onCancel: {
        cancelled.fire()
      }
    }
    #expect(value == nil, "a check that never returns must give nil, got \(String(describing: value))")
    #expect(cancelled.fired, "boundedCheck must cancel the check it gave up on")
  }
}

/// Whether something happened, from any thread.
private final class Signal: Sendable {
  private let state = Mutex(false)
  var fired: Bool { state.withLock { $0 } }
  func fire() { state.withLock { $0 = true } }
}
