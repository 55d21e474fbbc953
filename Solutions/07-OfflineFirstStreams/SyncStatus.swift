/// What the sync engine is doing, for a screen's "3 changes waiting" or "You're offline".
nonisolated enum SyncStatus: Sendable, Equatable {
  /// Nothing to send, or everything sent.
  case idle
  /// Sending the outbox; `pending` writes were waiting when it started.
  case syncing(pending: Int)
  /// No connection: writes wait in the outbox.
  case offline
  /// The last sync stopped on a failure (the catalog's after its retries, or the
  /// store's); the writes wait for the next one.
  case failed(lastError: CatalogError)
}
