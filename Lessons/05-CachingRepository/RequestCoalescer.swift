import LessonSupport

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
    didSet { wakeObservers() }
  }
  private var lastID: UInt64 = 0

  init() {}

  /// How many shared operations are running now.
  var inFlightCount: Int { flights.count }

  /// How many callers are waiting now, over every key.
  var waiterCount: Int { flights.values.reduce(0) { $0 + $1.waiters.count } }

  /// Returns the result of the running operation for `key`, starting
  /// `operation` when none is running.
  ///
  /// - Throws: What the shared operation throws, or `CancellationError` when
  ///   the calling task is cancelled, whether or not the operation goes on.
  func value(for key: Key, operation: @escaping @Sendable () async throws -> Value) async throws -> Value {
    // TODO: Task 7. Join the flight for `key`, or start one: a Task that runs
    // `operation` once and hands its result to every waiter. Each caller waits on
    // its own continuation in flights[key].waiters, inside
    // withTaskCancellationHandler, so it can leave alone with CancellationError;
    // when the last waiter leaves, cancel the flight's task.
    throw NotDoneYet("Task 7", in: "Docs/05-CachingRepository.md", "value(for:operation:) should share one run per key")
  }

  private func makeID() -> UInt64 {
    lastID += 1
    return lastID
  }

  // MARK: Watching the callers, for tests (finished code)

  private var observers: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]

  /// Returns once at least `count` callers are waiting, or when the calling task is cancelled.
  ///
  /// Tests call it to know that every caller has joined before they let the shared operation answer.
  func waitForWaiters(count: Int) async {
    let id = makeID()
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        if Task.isCancelled || waiterCount >= count {
          continuation.resume()
        } else {
          observers[id] = (count, continuation)
        }
      }
    } onCancel: {
      Task { await self.stopObserving(id) }
    }
  }

  private func stopObserving(_ id: UInt64) {
    observers.removeValue(forKey: id)?.continuation.resume()
  }

  private func wakeObservers() {
    let waiting = waiterCount
    for (id, observer) in observers where observer.count <= waiting {
      observers[id] = nil
      observer.continuation.resume()
    }
  }
}
