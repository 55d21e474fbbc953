/// A remote data source that sends failed reads again, as its `RetryPolicy` says.
///
/// It wraps another remote data source (a decorator), so the repository above
/// it does not change: `CachingProductRepository(remote: RetryingProductRemoteDataSource(wrapping: …))`.
/// It waits only on the injected clock and takes its jitter from the injected
/// random source, so a test decides both.
nonisolated struct RetryingProductRemoteDataSource: ProductRemoteDataSource {
  let remote: any ProductRemoteDataSource
  let policy: RetryPolicy
  let clock: any Clock<Duration>
  /// Numbers in `0..<1` for the jitter.
  let random: @Sendable () -> Double

  /// - Parameters:
  ///   - remote: The data source that sends the requests.
  ///   - policy: When to retry and how long to wait.
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

  /// Runs `operation`, and runs it again after each failure the policy retries,
  /// waiting the policy's delay on `clock` first, as long as the retry starts
  /// within `policy.budget` of the first attempt's start.
  ///
  /// - Throws: The last `CatalogError` when the policy stops; `CancellationError`
  ///   at once when the task is cancelled, during an attempt or a wait.
  func retrying<Value: Sendable>(
    _ request: RetryRequest, operation: @Sendable () async throws -> Value
  ) async throws -> Value {
    let elapsed = startStopwatch()
    var attempt = 1
    while true {
      do {
        return try await operation()
      } catch let error as CatalogError {
        try Task.checkCancellation()
        guard policy.shouldRetry(error, attempt: attempt, request: request) else { throw error }
        let delay = policy.delay(after: error, attempt: attempt, random: random())
        guard elapsed() + delay <= policy.budget else { throw error }
        try await clock.sleep(for: delay)
        attempt += 1
      }
    }
  }

  /// Finished: a stopwatch started now on `clock`; calling it says how long ago,
  /// attempts and waits included, on the same clock the waits sleep on.
  func startStopwatch() -> @Sendable () -> Duration {
    Self.stopwatch(on: clock)
  }

  private static func stopwatch<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }
}
