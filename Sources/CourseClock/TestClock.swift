import Synchronization

/// A clock that moves only when a test advances it.
///
/// Code under test sleeps on it the way it would sleep on `ContinuousClock`;
/// the test decides when that time has passed. A test first waits until the
/// sleepers it expects have registered (`waitForSleepers(count:)`), then advances,
/// so no test guesses with `Task.yield()` or real sleeps.
///
/// ```swift
/// let clock = TestClock()
/// let task = Task { try await clock.sleep(for: .seconds(5)) }
/// await clock.waitForSleepers(count: 1)
/// clock.advance(by: .seconds(5))
/// try await task.value
/// ```
public final class TestClock: Clock {
  /// A point on the test clock: the time advanced since the clock was made.
  public struct Instant: InstantProtocol, Sendable {
    /// How far this instant lies after the clock's start.
    public var offset: Duration

    /// Makes an instant at `offset` after the clock's start.
    public init(offset: Duration = .zero) { self.offset = offset }

    public func advanced(by duration: Duration) -> Instant {
      Instant(offset: offset + duration)
    }

    public func duration(to other: Instant) -> Duration { other.offset - offset }

    public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
  }

  private struct Sleeper {
    let id: UInt64
    let deadline: Instant
    let continuation: CheckedContinuation<Void, any Error>
  }

  private struct Waiter {
    let id: UInt64
    let count: Int
    let continuation: CheckedContinuation<Void, Never>
  }

  private struct State {
    var now = Instant()
    var nextID: UInt64 = 0
    var sleepers: [Sleeper] = []
    var waiters: [Waiter] = []
    /// Ids of sleepers or waiters cancelled before they registered.
    var cancelledEarly: Set<UInt64> = []

    mutating func makeID() -> UInt64 {
      nextID += 1
      return nextID
    }

    /// Removes and returns the waiters whose count the sleepers now reach.
    mutating func satisfiedWaiters() -> [Waiter] {
      let ready = waiters.filter { $0.count <= sleepers.count }
      waiters.removeAll { $0.count <= sleepers.count }
      return ready
    }
  }

  private let state = Mutex(State())

  /// Makes a clock that starts at offset zero.
  public init() {}

  /// The current instant: the total of every `advance` so far.
  public var now: Instant { state.withLock { $0.now } }

  /// The test clock has no granularity: any duration can pass.
  public var minimumResolution: Duration { .zero }

  /// How many sleepers are waiting for a later instant right now.
  public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

  /// Suspends until the clock has been advanced to `deadline`.
  ///
  /// Returns at once when the deadline has already passed.
  /// - Throws: `CancellationError` when the calling task is cancelled first.
  public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
    try Task.checkCancellation()
    let id = state.withLock { $0.makeID() }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (resumeNow, waiters): (Result<Void, any Error>?, [Waiter]) = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
          return (nil, state.satisfiedWaiters())
        }
        if let resumeNow { continuation.resume(with: resumeNow) }
        for waiter in waiters { waiter.continuation.resume() }
      }
    } onCancel: {
      let sleeper: Sleeper? = state.withLock { state in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index)
      }
      sleeper?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock forward and wakes every sleeper whose deadline has come,
  /// earliest deadline first.
  ///
  /// - Parameter duration: How much time passes; must not be negative.
  public func advance(by duration: Duration) {
    precondition(duration >= .zero, "A clock only moves forward; advance(by:) got \(duration)")
    let due: [Sleeper] = state.withLock { state in
      state.now = state.now.advanced(by: duration)
      let now = state.now
      let due = state.sleepers.filter { $0.deadline <= now }
      state.sleepers.removeAll { $0.deadline <= now }
      return due.sorted { $0.deadline < $1.deadline }
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Suspends until at least `count` sleepers are waiting on this clock.
  ///
  /// Call it before `advance(by:)` so the advance reaches the code under test.
  /// It returns early, without an error, when the calling task is cancelled;
  /// `waitForSleepers(count:whileRunning:)` uses that to stop waiting once the
  /// code under test has finished without sleeping.
  public func waitForSleepers(count: Int = 1) async {
    let id = state.withLock { $0.makeID() }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let ready: Bool = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil || state.sleepers.count >= count { return true }
          state.waiters.append(Waiter(id: id, count: count, continuation: continuation))
          return false
        }
        if ready { continuation.resume() }
      }
    } onCancel: {
      let waiter: Waiter? = state.withLock { state in
        guard let index = state.waiters.firstIndex(where: { $0.id == id }) else {
          state.cancelledEarly.insert(id)
          return nil
        }
        return state.waiters.remove(at: index)
      }
      waiter?.continuation.resume()
    }
  }

  /// Waits until `count` sleepers are registered or `task` finishes, whichever
  /// comes first, so a test never hangs on code that does not sleep at all.
  ///
  /// - Returns: `true` when the sleepers registered, `false` when the task
  ///   finished first.
  @discardableResult
  public func waitForSleepers<Success: Sendable, Failure: Error>(
    count: Int = 1,
    whileRunning task: Task<Success, Failure>
  ) async -> Bool {
    let registered = await waitFor({ await self.waitForSleepers(count: count) }, unlessFinished: task)
    return registered && sleeperCount >= count
  }
}
