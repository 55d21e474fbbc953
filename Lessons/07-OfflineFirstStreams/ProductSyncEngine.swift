import CourseSQLite
import Foundation
import LessonSupport

/// Sends the outbox to the catalog, oldest change first, whenever the device is online.
///
/// Stage 07, Tasks 5 to 7. What the engine promises is in Docs/07-OfflineFirstStreams.md;
/// how it keeps those promises (its helpers, its state, what wakes it) is yours to design.
actor ProductSyncEngine {
  private let store: OfflineProductStore
  private let remote: any ProductSyncRemoteDataSource
  /// Stage 06's retries, on the injected clock and jitter, around `remote`.
  private let retrying: RetryingProductRemoteDataSource
  let conflictPolicy: ConflictPolicy
  /// The conflicts met so far, oldest first.
  private(set) var conflicts: [ConflictResolution] = []

  /// - Parameters:
  ///   - store: The outbox and the products.
  ///   - remote: The catalog.
  ///   - retryPolicy: When to send a failed write again.
  ///   - clock: What the retries' waits sleep on: `ContinuousClock()` in the app, a `TestClock` in tests.
  ///   - random: The jitter source: `{ Double.random(in: 0..<1) }` in the app.
  ///   - conflictPolicy: Who wins a conflict.
  init(
    store: OfflineProductStore, remote: any ProductSyncRemoteDataSource, retryPolicy: RetryPolicy = .standard,
    clock: any Clock<Duration>, random: @escaping @Sendable () -> Double,
    conflictPolicy: ConflictPolicy = .serverWins
  ) {
    self.store = store
    self.remote = remote
    self.retrying = RetryingProductRemoteDataSource(wrapping: remote, policy: retryPolicy, clock: clock, random: random)
    self.conflictPolicy = conflictPolicy
  }

  /// The sync status now, and then every change of it; the stream finishes when `run(connectivity:)` returns.
  func statuses() -> AsyncStream<SyncStatus> {
    // TODO: Task 7. Screens observe the sync status (Docs/07, Task 7). Until then: a finished stream.
    AsyncStream { $0.finish() }
  }

  /// Sends every pending entry, oldest first, until none is left.
  ///
  /// - Throws: What stopped it, with the entry still first in line; `CancellationError` when cancelled.
  func syncNow() async throws {
    // TODO: Tasks 5 and 6. Replay the outbox in order, and settle conflicts by conflictPolicy (Docs/07).
    throw NotDoneYet("Task 5", in: "Docs/07-OfflineFirstStreams.md", "replay the outbox to the catalog, in order")
  }

  /// Follows connectivity and the outbox, syncing when a sync is due and publishing each status,
  /// until `connectivity` finishes; then finishes the status stream.
  ///
  /// - Parameter connectivity: `true` when the device is online; from a connectivity service.
  func run(connectivity: AsyncStream<Bool>) async throws {
    // TODO: Task 7. Decide what triggers a sync, and say what the engine is doing (Docs/07, Task 7).
    throw NotDoneYet("Task 7", in: "Docs/07-OfflineFirstStreams.md", "sync when a sync is due and publish the status")
  }
}
