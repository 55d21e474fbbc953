/// The catalog with a deadline on every request, kept on the injected clock.
///
/// A session's timeouts are the platform's to keep, and they are not enough:
/// `timeoutIntervalForRequest` restarts with every byte, and on Linux a body that
/// drips one byte every few seconds held a request for minutes although the
/// resource timeout was 60 s. Here a request that has not answered by `timeout`
/// is cancelled and fails with `CatalogError.timedOut`, which the retries and
/// the sync engine treat as transient (a write is sent again with its key).
nonisolated struct DeadlineRemoteDataSource: ProductSyncRemoteDataSource {
  let remote: any ProductSyncRemoteDataSource
  let timeout: Duration
  let clock: any Clock<Duration>

  /// - Parameters:
  ///   - remote: The catalog.
  ///   - timeout: How long one request may take, answer and body included.
  ///   - clock: What the deadline is kept on: `ContinuousClock()` in the app, a `TestClock` in tests.
  init(wrapping remote: any ProductSyncRemoteDataSource, timeout: Duration, clock: any Clock<Duration>) {
    self.remote = remote
    self.timeout = timeout
    self.clock = clock
  }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    try await withinDeadline { [remote] in try await remote.products(limit: limit, skip: skip) }
  }

  func product(id: Int) async throws -> Product {
    try await withinDeadline { [remote] in try await remote.product(id: id) }
  }

  func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt {
    try await withinDeadline { [remote] in
      try await remote.send(entry, idempotencyKey: idempotencyKey, baseVersion: baseVersion)
    }
  }

  /// `operation`'s result, or `CatalogError.timedOut` once `timeout` has passed on `clock`.
  private func withinDeadline<Value: Sendable>(_ operation: @escaping @Sendable () async throws -> Value)
    async throws -> Value
  {
    let (clock, timeout) = (clock, timeout)
    return try await withThrowingTaskGroup(of: Value.self) { group in
      group.addTask { try await operation() }
      group.addTask {
        try await clock.sleep(for: timeout)
        throw CatalogError.timedOut
      }
      defer { group.cancelAll() }
      guard let first = try await group.next() else { throw CancellationError() }
      return first
    }
  }
}
