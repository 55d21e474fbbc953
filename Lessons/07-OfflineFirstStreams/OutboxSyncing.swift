/// What the app and the tests ask of a sync engine: Tasks 5 to 7.
///
/// The engine sends the outbox to the catalog, oldest change first, whenever
/// the device is online. `OfflineAppDependencies.makeSyncEngine(...)` makes the
/// one the app runs. Its promises are the rules of "The sync engine" and "What
/// wakes the engine" in Docs/07-OfflineFirstStreams.md; the type that keeps them,
/// its helpers and its state are yours to design.
nonisolated protocol OutboxSyncing: Sendable {
  /// The sync status now, and then every change of it; the stream finishes when
  /// `run(connectivity:)` returns.
  func statuses() async -> AsyncStream<SyncStatus>

  /// Sends every pending entry, oldest first, until none is left. A call made
  /// while a sync runs never sends an entry twice; how it meets the running
  /// sync is yours (Docs/07, "Your decisions").
  ///
  /// - Throws: What stopped it, with the entry still first in line;
  ///   `CancellationError` when cancelled.
  func syncNow() async throws

  /// Follows connectivity and the outbox, syncing when a sync is due and
  /// publishing each status, until `connectivity` finishes; then finishes the
  /// status stream.
  ///
  /// - Parameter connectivity: `true` when the device is online; from a connectivity service.
  func run(connectivity: AsyncStream<Bool>) async throws

  /// The conflicts met so far, oldest first (Task 6).
  var conflicts: [ConflictResolution] { get async }
}
