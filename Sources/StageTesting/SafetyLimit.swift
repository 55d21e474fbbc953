import CourseClock
import Foundation
import Synchronization

// Waiting for I/O in a test without waiting on the clock: the helpers the
// suites of the stages with a database and streams share (07 and the capstone).

/// How long a test waits for something that needs I/O (a request to the fake
/// catalog through `URLSession`, a write to a database file) before it gives up.
///
/// A failure guard, never a pass condition: the test waits for the event itself
/// and goes on the moment it comes, which takes working code a few milliseconds.
/// Only code that never does what the test waits for meets the limit, and the
/// test then fails saying what never came, instead of hanging until the suite's
/// time limit. A count of `Task.yield()` turns (`patienceTurns`) is no such
/// guard for I/O: a loaded machine can spend them before the answer arrives.
public let safetyLimit: Duration = .seconds(10)

/// Waits until `event` returns, or gives up after `safetyLimit` of real time.
///
/// `event` must return when its task is cancelled (it is cancelled once the limit wins).
/// - Returns: `true` when `event` returned first.
public func withinSafetyLimit(_ event: @escaping @Sendable () async -> Void) async -> Bool {
  let limit = Task { try? await Task.sleep(for: safetyLimit) }
  defer { limit.cancel() }
  return await waitFor(event, unlessFinished: limit)
}

/// Whether `condition` holds within `safetyLimit`, checked again after every
/// turn: for a state that comes after I/O and that no event announces (a
/// cancelled request letting go of its clock).
public func eventually(_ condition: () -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: safetyLimit)
  while !condition() {
    if Task.isCancelled || ContinuousClock.now >= deadline { return condition() }
    await Task.yield()
  }
  return true
}

/// `eventually` for a condition that must await to be read (a repository's
/// `latest()`, an actor's state): whether it becomes true within
/// `safetyLimit`, checked again after every turn.
///
/// ```swift
/// #expect(await comesTrue { (try? await repository.latest())?.first?.title == "Edited" })
/// ```
public func comesTrue(_ condition: () async -> Bool) async -> Bool {
  let deadline = ContinuousClock.now.advanced(by: safetyLimit)
  while !(await condition()) {
    if Task.isCancelled || ContinuousClock.now >= deadline { return await condition() }
    await Task.yield()
  }
  return true
}

extension TestClock {
  /// Waits until `count` sleepers are registered, at most `safetyLimit`: for
  /// sleepers that come after I/O, such as a request the fake catalog holds.
  /// - Returns: whether they registered.
  @discardableResult
  public func waitForSleepersWithinSafetyLimit(count: Int = 1) async -> Bool {
    _ = await withinSafetyLimit { await self.waitForSleepers(count: count) }
    return sleeperCount >= count
  }
}

/// Whether `task` finishes within `safetyLimit`: for a task that ends after I/O.
///
/// - Parameter cancelling: Cancel `task` when it does not finish, so nothing is left waiting.
public func finishesWithinSafetyLimit<Success: Sendable, Failure: Error>(
  _ task: Task<Success, Failure>, cancelling: Bool = false
) async -> Bool {
  let finished = !(await waitFor({ try? await Task.sleep(for: safetyLimit) }, unlessFinished: task))
  if !finished && cancelling { task.cancel() }
  return finished
}

/// Whether `body`, run on a thread of its own, returns within `safetyLimit`. A
/// deadlock in it blocks that thread only, never one the tests run on.
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

  /// Waits until `count` values were read or the stream ended, at most `safetyLimit`.
  /// - Returns: `true` when `count` values were read.
  public func waitFor(count: Int) async -> Bool {
    _ = await withinSafetyLimit { await self.arrival(of: count) }
    return values.count >= count
  }

  /// Waits until the stream ends, at most `safetyLimit`.
  /// - Returns: whether it ended.
  public func waitForEnd() async -> Bool {
    _ = await withinSafetyLimit { await self.arrival(of: nil) }
    return ended
  }

  /// Why `waitFor(count:)` came back short, for messages: the stream ended, or
  /// nothing more came within the safety limit.
  public var whyShort: String {
    ended
      ? "the stream ended"
      : "nothing more came within \(safetyLimit) (a safety limit: working code takes milliseconds)"
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
