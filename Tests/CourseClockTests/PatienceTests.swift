import CourseClock
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
}
