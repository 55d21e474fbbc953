import LessonSupport

/// A decorator around a remote data source that retries failed requests, as its
/// `RetryPolicy` says (Docs/06-ErrorMapping.md, "A retry policy, as a decorator").
nonisolated struct RetryingProductRemoteDataSource: ProductRemoteDataSource {
  let remote: any ProductRemoteDataSource
  let policy: RetryPolicy
  let clock: any Clock<Duration>
  /// The jitter source.
  let random: @Sendable () -> Double

  /// - Parameters:
  ///   - remote: The data source that sends the requests.
  ///   - policy: The retry policy.
  ///   - clock: What the waits sleep on: `ContinuousClock()` in the app, a `TestClock` in tests.
  ///   - random: The jitter source: `{ Double.random(in: 0..<1) }` in the app.
  init(
    wrapping remote: any ProductRemoteDataSource, policy: RetryPolicy, clock: any Clock<Duration>,
    random: @escaping @Sendable () -> Double
  ) {
    self.remote = remote
    self.policy = policy
    self.clock = clock
    self.random = random
  }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await retrying(.get) { try await remote.products(limit: limit, skip: skip) }
  }

  func product(id: Int) async throws -> Product {
    try await retrying(.get) { try await remote.product(id: id) }
  }

  // MARK: Task 7: retry around the remote source

  /// Runs `operation` for `request` under the policy: the retry loop, the entry
  /// for any request (Docs/06-ErrorMapping.md, Task 7).
  func retrying<Value: Sendable>(
    _ request: RetryRequest, operation: @Sendable () async throws -> Value
  ) async throws -> Value {
    // TODO: Task 7 (Docs/06-ErrorMapping.md).
    throw NotDoneYet(
      "Task 7", in: "Docs/06-ErrorMapping.md", "retrying(_:operation:) should run the operation and retry it")
  }

  /// Finished: a stopwatch started now on `clock`; calling it says how long ago.
  func startStopwatch() -> @Sendable () -> Duration {
    Self.stopwatch(on: clock)
  }

  private static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }
}
