/// The catalog as the sync engine uses it: reads, and the outbox's writes.
protocol ProductSyncRemoteDataSource: ProductRemoteDataSource {
  /// Sends one outbox entry with its idempotency key in the `Idempotency-Key` header.
  ///
  /// - Parameter idempotencyKey: The entry's key; another one only to override the catalog after a conflict.
  /// - Returns: The catalog's product for an add or an update, `nil` for a delete.
  /// - Throws: `CatalogError` (409 is `.rejected(status: 409)`: a conflict), or `CancellationError`.
  func send(_ entry: OutboxEntry, idempotencyKey: String) async throws -> Product?
}
