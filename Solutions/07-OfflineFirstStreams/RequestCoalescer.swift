/// Joins concurrent identical requests into one operation, as Nuke coalesces
/// image requests: every caller with the same key shares one run and its result
/// or error.
///
/// Each caller may cancel on its own: it gets `CancellationError` at once and
/// the others keep waiting. When the last caller has cancelled, the shared
/// operation is cancelled too. A call that arrives after a run finished starts a
/// new one: this joins requests in flight, it is not a cache.
actor RequestCoalescer<Key: Hashable & Sendable, Value: Sendable> {
  private struct Flight {
    let id: UInt64
    let task: Task<Void, Never>
    var waiters: [UInt64: CheckedContinuation<Value, any Error>] = [:]
  }

  private var flights: [Key: Flight] = [:] {
    didSet {
      let waiting = Self.waiterCount(in: flights)
      if waiting != Self.waiterCount(in: oldValue) { waitersChanged(waiting) }
    }
  }
  private var lastID: UInt64 = 0
  private let waitersChanged: @Sendable (_ waiting: Int) -> Void

  /// - Parameter waitersChanged: Hears how many callers wait, over every key,
  ///   each time that number changes, on the actor: an app may log it, a test
  ///   waits on it instead of sleeping. The default hears nothing.
  init(waitersChanged: @escaping @Sendable (_ waiting: Int) -> Void = { _ in }) {
    self.waitersChanged = waitersChanged
  }

  /// Returns the result of the running operation for `key`, starting
  /// `operation` when none is running.
  ///
  /// - Throws: What the shared operation throws, or `CancellationError` when
  ///   the calling task is cancelled, whether or not the operation goes on.
  func value(for key: Key, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    let waiter = makeID()
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        // This runs on the actor without suspending: the caller joins or starts
        // a run, and is registered, before anything else can happen to the run.
        guard !Task.isCancelled else {
          continuation.resume(throwing: CancellationError())
          return
        }
        if flights[key] == nil { flights[key] = start(key, operation) }
        flights[key]?.waiters[waiter] = continuation
      }
    } onCancel: {
      // A cancellation that comes before the registration above is seen there by
      // Task.isCancelled; one that comes after finds the waiter here.
      Task { await self.cancel(waiter, for: key) }
    }
  }

  private func start(_ key: Key, _ operation: @escaping @Sendable () async throws -> Value) -> Flight {
    let id = makeID()
    let task = Task {
      let result: Result<Value, any Error>
      do {
        result = .success(try await operation())
      } catch {
        result = .failure(error)
      }
      self.finish(key, flight: id, with: result)
    }
    return Flight(id: id, task: task)
  }

  private static func waiterCount(in flights: [Key: Flight]) -> Int {
    flights.values.reduce(0) { $0 + $1.waiters.count }
  }

  private func makeID() -> UInt64 {
    lastID += 1
    return lastID
  }

  /// Hands the result to every caller still waiting on this run.
  private func finish(_ key: Key, flight id: UInt64, with result: Result<Value, any Error>) {
    // Every caller cancelled and a new run may have started: this result is nobody's.
    guard let flight = flights[key], flight.id == id else { return }
    flights[key] = nil
    for continuation in flight.waiters.values { continuation.resume(with: result) }
  }

  /// Lets one caller go with `CancellationError`; cancels the run when it was the last.
  private func cancel(_ waiter: UInt64, for key: Key) {
    guard let continuation = flights[key]?.waiters.removeValue(forKey: waiter) else { return }
    if let flight = flights[key], flight.waiters.isEmpty {
      flights[key] = nil
      // Cancelled before the last caller hears back, so the caller never sees a run still going.
      flight.task.cancel()
    }
    continuation.resume(throwing: CancellationError())
  }
}
