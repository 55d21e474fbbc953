import CourseClock
import Foundation
import Synchronization
import Testing

// Waiting for I/O in a test without waiting on the clock: the helpers the
// suites of the stages with a database and streams share (07 and the capstone).
//
// Every wait here is a failure guard, never a pass condition: the test waits for
// the event itself and goes on the moment it comes, which takes working code a
// few milliseconds. Only code that never does what the test waits for meets the
// limit, and the test then fails saying what never came, instead of hanging
// until the suite's time limit. A count of `Task.yield()` turns
// (`patienceTurns`) is no such guard for I/O: a loaded machine can spend them
// before the answer arrives.
//
// One test has one `safetyLimit` (CourseClock), not one per wait. Once a wait
// of a test has met it, the code is known not to do something, and each later
// wait of that test gets `patienceTurns` turns instead: enough for what already
// happened, never another 10 s. So a test whose stream never sends again ends
// about `safetyLimit` after it started waiting, with its messages recorded,
// not three limits later, after `course` has stopped the suite as hung.

/// Tests, by id, that have met their safety limit.
private let testsPastTheirLimit = Mutex<Set<Test.ID>>([])

/// Whether the running test has already met its safety limit in an earlier
/// wait, so that its waits now give up after `patienceTurns` turns.
var safetyLimitIsSpent: Bool {
  guard let id = Test.current?.id else { return false }
  return testsPastTheirLimit.withLock { $0.contains(id) }
}

/// Records that the running test met its safety limit.
private func spendSafetyLimit() {
  guard let id = Test.current?.id else { return }
  testsPastTheirLimit.withLock { _ = $0.insert(id) }
}

/// What one wait may still take of the running test's safety limit.
private struct Allowance {
  private let spent = safetyLimitIsSpent
  private let deadline = ContinuousClock.now.advanced(by: safetyLimit)
  private var turns = 0

  /// Counts one turn of a polling wait; `true` once the wait must give up.
  mutating func isOver() -> Bool {
    turns += 1
    return Task.isCancelled || (spent ? turns > patienceTurns : ContinuousClock.now >= deadline)
  }

  /// Returns when the allowance is used up: `safetyLimit` of real time, or
  /// `patienceTurns` turns once the test has met its limit; early when cancelled.
  static func runOut() async {
    if safetyLimitIsSpent { await runOutOfPatience() } else { try? await Task.sleep(for: safetyLimit) }
  }
}

/// Waits until `event` returns, or gives up after the test's safety limit, or
/// as soon as the calling task is cancelled.
///
/// `event` must return when its task is cancelled (it is cancelled once the limit wins).
/// - Returns: `true` when `event` returned first.
public func withinSafetyLimit(_ event: @escaping @Sendable () async -> Void) async -> Bool {
  let limit = Task { await Allowance.runOut() }
  defer { limit.cancel() }
  let came = await withTaskCancellationHandler {
    await waitFor(event, unlessFinished: limit)
  } onCancel: {
    limit.cancel()
  }
  // A wait its caller gave up on says nothing about the code.
  if !came, !Task.isCancelled { spendSafetyLimit() }
  return came
}

/// Whether `condition` holds within the test's safety limit, checked again after
/// every turn: for a state that comes after I/O and that no event announces (a
/// cancelled request letting go of its clock).
public func eventually(_ condition: () -> Bool) async -> Bool {
  var allowance = Allowance()
  while !condition() {
    if allowance.isOver() {
      if condition() { return true }
      if !Task.isCancelled { spendSafetyLimit() }
      return false
    }
    await Task.yield()
  }
  return true
}

/// `eventually` for a condition that must await to be read (a repository's
/// `latest()`, an actor's state): whether it becomes true within the test's
/// safety limit, checked again after every turn.
///
/// ```swift
/// #expect(await comesTrue { (try? await repository.latest())?.first?.title == "Edited" })
/// ```
public func comesTrue(_ condition: () async -> Bool) async -> Bool {
  var allowance = Allowance()
  while !(await condition()) {
    if allowance.isOver() {
      if await condition() { return true }
      if !Task.isCancelled { spendSafetyLimit() }
      return false
    }
    await Task.yield()
  }
  return true
}

extension TestClock {
  /// Waits until `count` sleepers are registered, within the test's safety
  /// limit: for sleepers that come after I/O, such as a request the fake catalog holds.
  /// - Returns: whether they registered.
  @discardableResult
  public func waitForSleepersWithinSafetyLimit(count: Int = 1) async -> Bool {
    _ = await withinSafetyLimit { await self.waitForSleepers(count: count) }
    return sleeperCount >= count
  }
}

/// Whether `task` finishes within the test's safety limit: for a task that ends after I/O.
///
/// - Parameter cancelling: Cancel `task` when it does not finish, so nothing is left waiting.
public func finishesWithinSafetyLimit<Success: Sendable, Failure: Error>(
  _ task: Task<Success, Failure>, cancelling: Bool = false
) async -> Bool {
  let finished = !(await waitFor({ await Allowance.runOut() }, unlessFinished: task))
  if !finished {
    if !Task.isCancelled { spendSafetyLimit() }
    if cancelling { task.cancel() }
  }
  return finished
}

/// Whether `body`, run on a thread of its own, returns within the test's safety
/// limit. A deadlock in it blocks that thread only, never one the tests run on.
public func returnsOnItsOwnThread(_ body: @escaping @Sendable () -> Void) async -> Bool {
  let (returned, signal) = AsyncStream.makeStream(of: Void.self)
  Thread {
    body()
    signal.finish()
  }.start()
  return await withinSafetyLimit { for await _ in returned {} }
}

/// Reads a stream in a task of its own, so a test waits for a value as it
/// arrives, and never forever. Cancelling it (or letting it go) ends the read.
public final class StreamReader<Value: Sendable>: Sendable {
  private struct Waiter {
    /// The values it waits for; `nil`: the end of the stream.
    let count: Int?
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct Seen {
    var values: [Value] = []
    var ended = false
    var waiters: [Int: Waiter] = [:]
    var nextID = 0
    /// Ids of waits cancelled before they registered.
    var cancelledEarly: Set<Int> = []
    /// Whether the last wait started after the test had met its safety limit.
    var lastWaitWasShortened = false

    func isDone(_ count: Int?) -> Bool {
      ended || count.map { values.count >= $0 } ?? false
    }

    /// Removes and returns the waiters that the values read so far satisfy.
    mutating func satisfied() -> [CheckedContinuation<Void, Never>] {
      let done = waiters.filter { isDone($0.value.count) }
      for id in done.keys { waiters[id] = nil }
      return done.values.map(\.continuation)
    }
  }

  private final class Box: Sendable {
    let seen = Mutex(Seen())

    func update(_ change: (inout Seen) -> Void) {
      let ready = seen.withLock { seen in
        change(&seen)
        return seen.satisfied()
      }
      for continuation in ready { continuation.resume() }
    }
  }

  private let box: Box
  private let reader: Task<Void, Never>

  public init(_ stream: AsyncStream<Value>) {
    let box = Box()
    self.box = box
    reader = Task {
      for await value in stream { box.update { $0.values.append(value) } }
      box.update { $0.ended = true }
    }
  }

  deinit { reader.cancel() }

  /// Every value read so far.
  public var values: [Value] { box.seen.withLock { $0.values } }

  /// Whether the stream ended (or the reader was cancelled).
  public var ended: Bool { box.seen.withLock { $0.ended } }

  /// Suspends until `count` values were read, or the stream ended (`nil`: until it ended);
  /// returns early when the calling task is cancelled.
  private func arrival(of count: Int?) async {
    let id = box.seen.withLock { seen in
      seen.nextID += 1
      return seen.nextID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = box.seen.withLock { seen in
          if seen.cancelledEarly.remove(id) != nil || seen.isDone(count) { return true }
          seen.waiters[id] = Waiter(count: count, continuation: continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = box.seen.withLock { seen in
        guard let waiter = seen.waiters.removeValue(forKey: id) else {
          seen.cancelledEarly.insert(id)
          return nil as Waiter?
        }
        return waiter
      }
      waiter?.continuation.resume()
    }
  }

  /// Waits until `count` values were read or the stream ended, within the test's safety limit.
  /// - Returns: `true` when `count` values were read.
  public func waitFor(count: Int) async -> Bool {
    await wait { await self.arrival(of: count) }
    return values.count >= count
  }

  /// Waits until the stream ends, within the test's safety limit.
  /// - Returns: whether it ended.
  public func waitForEnd() async -> Bool {
    await wait { await self.arrival(of: nil) }
    return ended
  }

  /// Runs one wait, noting whether it had the whole safety limit, for `whyShort`.
  private func wait(_ event: @escaping @Sendable () async -> Void) async {
    let shortened = safetyLimitIsSpent
    box.update { $0.lastWaitWasShortened = shortened }
    _ = await withinSafetyLimit(event)
  }

  /// Why the last `waitFor(count:)` came back short, for messages: the stream
  /// ended, or nothing more came within the safety limit.
  public var whyShort: String {
    if ended { return values.isEmpty ? "the stream ended without a value" : "the stream ended" }
    let nothing = values.isEmpty ? "no value came" : "nothing more came"
    if box.seen.withLock({ $0.lastWaitWasShortened }) {
      return "\(nothing) (the test had already waited out its \(safetyLimit) safety limit on an earlier "
        + "wait, so it gave this one a few turns only)"
    }
    return "\(nothing) within \(safetyLimit) (a safety limit: working code takes milliseconds)"
  }

  /// The values read once `count` came, and a few hundred turns later, so a
  /// value too many shows as well: a bounded wait, never a duration.
  public func settled(count: Int) async -> [Value] {
    _ = await waitFor(count: count)
    for _ in 0..<500 {
      if ended || Task.isCancelled { break }
      await Task.yield()
    }
    return values
  }

  /// Stops reading.
  public func cancel() { reader.cancel() }
}
