/// A remote data source that sends failed reads again, as its `RetryPolicy` says.
///
/// It wraps another remote data source (a decorator), so the repository above
/// it does not change: `CachingProductRepository(remote: RetryingProductRemoteDataSource(wrapping: …))`.
/// It waits only on the injected clock and takes its jitter from the injected
/// random source, so a test decides both.
struct RetryingProductRemoteDataSource: ProductRemoteDataSource {
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
  /// waiting the policy's delay on `clock` first.
  ///
  /// - Throws: The last `CatalogError` when the policy stops; `CancellationError`
  ///   at once when the task is cancelled, during an attempt or a wait.
  func retrying<Value: Sendable>(
    _ request: RetryRequest, operation: @Sendable () async throws -> Value
  ) async throws -> Value {
    var attempt = 1
    var waited = Duration.zero
    while true {
      do {
        return try await operation()
      } catch let error as CatalogError {
        try Task.checkCancellation()
        guard policy.shouldRetry(error, attempt: attempt, request: request) else { throw error }
        let delay = policy.delay(after: error, attempt: attempt, random: random())
        guard waited + delay <= policy.budget else { throw error }
        try await clock.sleep(for: delay)
        waited += delay
        attempt += 1
      }
    }
  }
}
