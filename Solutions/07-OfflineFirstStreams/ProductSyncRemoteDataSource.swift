/// The catalog as the sync engine uses it: reads, and the outbox's writes.
nonisolated protocol ProductSyncRemoteDataSource: ProductRemoteDataSource {
  /// Sends one outbox entry with its idempotency key in the `Idempotency-Key`
  /// header and its base version in `If-Match`.
  ///
  /// - Parameters:
  ///   - idempotencyKey: The entry's key; another one only to override the catalog after a conflict.
  ///   - baseVersion: The version the write starts from (`If-Match`); `nil` sends none.
  /// - Returns: What the catalog answered. Any 2xx is a receipt, even one whose body can't be read:
  ///   the catalog applied the write.
  /// - Throws: `CatalogError` (412 is `.rejected(status: 412)`: the catalog's copy
  ///   changed since `baseVersion`), or `CancellationError`.
  func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt
}
