import CourseSQLite
import Foundation

/// Sends the outbox to the catalog, oldest change first, whenever the device is online.
///
/// - Every attempt of an entry carries the entry's idempotency key, so a write
///   whose answer was lost, and which is sent again, is applied once.
/// - A transient failure is retried with stage 06's `RetryPolicy`; when the
///   retries run out, the sync stops and the entry stays first in line.
/// - Every update and delete carries the version it started from (`If-Match`);
///   a 412 says the catalog's copy changed since, a conflict that
///   `conflictPolicy` resolves and `conflicts` lists.
/// - A 409 says the catalog is still answering a request with the same key (the
///   IETF Idempotency-Key draft): the sync stops and the entry is sent again later.
/// - A write the catalog refuses for good (another 4xx, or a 404 for a delete,
///   which is done) is set aside with its error, and the entries behind it go on.
/// - One sync at a time: a sync asked for while one runs joins it, and the
///   running one looks for entries once more before it ends.
/// - Everything it knows waits in the database, so a new engine after a restart
///   picks up where the last one stopped.
actor ProductSyncEngine {
  private let store: OfflineProductStore
  private let remote: any ProductSyncRemoteDataSource
  private let retrying: RetryingProductRemoteDataSource
  let conflictPolicy: ConflictPolicy
  /// The status screens observe; the stream finishes when `run(connectivity:)` returns.
  let status = ProductBroadcast<SyncStatus>(.idle)
  /// The conflicts met so far, oldest first.
  private(set) var conflicts: [ConflictResolution] = []
  /// The sync that runs now, which every caller of `syncNow()` awaits.
  private var running: Task<Void, any Error>?
  /// Whether a caller asked for a sync while one ran.
  private var askedAgain = false

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

  /// The sync status now, and then every change of it.
  func statuses() -> AsyncStream<SyncStatus> { status.subscribe() }

  // MARK: Task 5: replay the outbox in order

  /// Sends every pending entry, oldest first, until none is left.
  ///
  /// - Throws: What stopped it, and the entry stays first in line: the
  ///   `CatalogError` of a transient failure after its retries, or the store's
  ///   own error (`SQLiteError`), which `reported(_:)` turns into a
  ///   `CatalogError`. `CancellationError` when cancelled.
  func syncNow() async throws {
    // A sync that going offline cancelled is ending: wait for it, then start afresh,
    // so a caller who was not cancelled never gets its CancellationError.
    if let stopping = running, stopping.isCancelled {
      _ = await stopping.result
      if running == stopping { running = nil }
    }
    if let running {
      askedAgain = true
      return try await running.value
    }
    let sync = Task { try await self.drainAsAsked() }
    running = sync
    defer { if running == sync { running = nil } }
    try await withTaskCancellationHandler {
      try await sync.value
    } onCancel: {
      sync.cancel()
    }
  }

  /// Drains the outbox, and drains it again while callers asked for a sync during the last pass.
  private func drainAsAsked() async throws {
    repeat {
      askedAgain = false
      try await drain()
    } while askedAgain
  }

  private func drain() async throws {
    while let entry = try await store.nextPending() {
      do {
        let receipt = try await send(entry, idempotencyKey: entry.idempotencyKey, baseVersion: entry.baseVersion)
        try await store.complete(entry, receipt: receipt)
      } catch let error as CatalogError where Self.refusesForGood(error) {
        try await settle(entry, refusedWith: error)
      }
    }
  }

  /// Whether the catalog refused this write for good, so it is settled or set
  /// aside and the entries behind it go on: retrying can't help, and the failure
  /// is about the write. A 409 is not (the catalog is busy with this product; the
  /// next sync tries again), and neither are 401 and 403 or a connection that is
  /// not secure: they are about the session or the network, so they stop the
  /// sync with every entry kept, first in line for when the person signs in
  /// again or the network is fixed, instead of setting aside the whole outbox.
  private static func refusesForGood(_ error: CatalogError) -> Bool {
    switch error {
    case .rejected(status: 409), .unauthorized, .insecureConnection: false
    default: !error.isRetryable
    }
  }

  /// One entry, through stage 06's retries, with the same key on every attempt.
  private func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt {
    try await retrying.retrying(RetryRequest(method: entry.method, idempotencyKey: idempotencyKey)) {
      try await self.remote.send(entry, idempotencyKey: idempotencyKey, baseVersion: baseVersion)
    }
  }

  /// What happens to an entry the catalog refused: a conflict is resolved, a
  /// delete of what is already gone is done, anything else is set aside.
  private func settle(_ entry: OutboxEntry, refusedWith error: CatalogError) async throws {
    switch error {
    case .rejected(status: 412):
      do {
        try await resolveConflict(entry)
      } catch let error as CatalogError where Self.refusesForGood(error) {
        try await store.setAside(entry, reason: "\(error)")
      }
    case .notFound where entry.kind == .delete:
      try await store.complete(entry, receipt: WriteReceipt(id: entry.productID, product: nil))
    default:
      try await store.setAside(entry, reason: "\(error)")
    }
  }

  // MARK: Task 6: resolve conflicts

  /// Reads the catalog's copy and lets `conflictPolicy` pick the copy that stands.
  ///
  /// The client's copy is sent again against the catalog's current version,
  /// with a key of its own (the entry's key and that version), since the catalog
  /// answered the entry's key already.
  private func resolveConflict(_ entry: OutboxEntry) async throws {
    let server: Product
    do {
      server = try await retrying.retrying(.get) { try await self.remote.product(id: entry.productID) }
    } catch CatalogError.notFound {
      // The catalog deleted it: nothing to win against. A delete is done; an update is set aside.
      guard entry.kind == .delete else { throw CatalogError.notFound }
      try await store.complete(entry, receipt: WriteReceipt(id: entry.productID, product: nil))
      return
    }
    let winner = conflictPolicy.winner
    switch winner {
    case .server:
      try await store.acceptServerCopy(server, for: entry)
    case .client:
      let receipt = try await send(
        entry, idempotencyKey: entry.idempotencyKey + "-over-" + (server.version ?? "unversioned"),
        baseVersion: server.version)
      try await store.complete(entry, receipt: receipt)
    }
    conflicts.append(ConflictResolution(productID: entry.productID, policy: conflictPolicy, winner: winner))
  }

  // MARK: Following connectivity and the store (finished)

  /// Follows connectivity and the outbox: offline, it says so; online, it syncs
  /// now, after every write the store commits, and after a failure when the
  /// retry timer says (the server's `Retry-After`, else the policy's backoff).
  /// Going offline stops a running sync. Returns when `connectivity` finishes
  /// and the running sync has ended, and then finishes the status stream.
  ///
  /// - Parameter connectivity: `true` when the device is online; from a connectivity service.
  func run(connectivity: AsyncStream<Bool>) async throws {
    defer { status.finish() }
    try await follow(connectivity)
  }

  /// What wakes the engine up.
  private enum Wakeup: Sendable {
    case connectivity(Bool)
    case connectivityEnded
    case storeChanged
    case retryDue
    case syncEnded(Result<Void, any Error>)
  }

  /// What the engine knows while it follows.
  private struct Following {
    var online = false
    var sync: Task<Void, Never>?
    var retry: Task<Void, Never>?
    /// The store changed while a sync ran: look again when it ends well.
    var changedDuringSync = false
    var failures = 0
    var ending = false
  }

  private func follow(_ connectivity: AsyncStream<Bool>) async throws {
    let (wakeups, wake) = AsyncStream.makeStream(of: Wakeup.self)
    let changes = try await store.observe()
    let feeders = [
      Task {
        for await online in connectivity { wake.yield(.connectivity(online)) }
        wake.yield(.connectivityEnded)
      },
      Task { for await _ in changes { wake.yield(.storeChanged) } },
    ]
    var state = Following()
    defer {
      for feeder in feeders { feeder.cancel() }
      state.retry?.cancel()
      state.sync?.cancel()
      wake.finish()
    }
    for await wakeup in wakeups {
      guard try await react(to: wakeup, &state, wake) else { return }
    }
  }

  // MARK: Task 7: publish the sync status

  /// What the engine does when `wakeup` comes, and what it publishes.
  ///
  /// - Returns: `false` when following ends: connectivity finished and no sync runs.
  private func react(
    to wakeup: Wakeup, _ state: inout Following, _ wake: AsyncStream<Wakeup>.Continuation
  ) async throws -> Bool {
    switch wakeup {
    case .connectivity(false):
      state.online = false
      state.retry?.cancel()
      state.sync?.cancel()
      status.publish(.offline)
    case .connectivity(true):
      state.online = true
      state.retry?.cancel()
      if state.sync == nil { try await startSync(&state, wake) } else { state.changedDuringSync = true }
    case .storeChanged, .retryDue:
      if state.sync != nil {
        state.changedDuringSync = true
      } else if state.online, try await hasPending(&state, wake) {
        try await startSync(&state, wake)
      }
    case .syncEnded(let outcome):
      state.sync = nil
      switch outcome {
      case .success:
        state.failures = 0
        status.publish(.idle)
        if state.changedDuringSync, state.online, !state.ending, try await hasPending(&state, wake) {
          try await startSync(&state, wake)
        }
      case .failure where !state.online:
        break  // Stopped by going offline: `.offline` says so.
      case .failure(let error) where error is CancellationError:
        // Stopped by going offline, and back online before it ended: no failure; sync again.
        if !state.ending { try await startSync(&state, wake) }
      case .failure(let error):
        try failed(error, &state, wake)
      }
      state.changedDuringSync = false
      if state.ending { return false }
    case .connectivityEnded:
      guard state.sync != nil else { return false }
      state.ending = true
    }
    return true
  }

  private func startSync(_ state: inout Following, _ wake: AsyncStream<Wakeup>.Continuation) async throws {
    state.changedDuringSync = false
    let pending: Int
    do {
      pending = try await store.pendingCount()
    } catch {
      try failed(error, &state, wake)
      return
    }
    status.publish(.syncing(pending: pending))
    state.sync = Task {
      do {
        try await self.syncNow()
        wake.yield(.syncEnded(.success(())))
      } catch {
        wake.yield(.syncEnded(.failure(error)))
      }
    }
  }

  /// Whether the outbox has entries to send. A store that cannot say is a failed
  /// sync, as one that fails mid-sync is: the engine runs for the app's life.
  private func hasPending(_ state: inout Following, _ wake: AsyncStream<Wakeup>.Continuation) async throws -> Bool {
    do {
      return try await store.pendingCount() > 0
    } catch {
      try failed(error, &state, wake)
      return false
    }
  }

  /// A sync that stopped, or could not start: says why, and sets the retry timer.
  /// - Throws: Only cancellation, which ends the engine.
  private func failed(_ error: any Error, _ state: inout Following, _ wake: AsyncStream<Wakeup>.Continuation) throws {
    let reported = try reported(error)
    status.publish(.failed(lastError: reported))
    state.failures += 1
    state.retry?.cancel()
    state.retry = retryTimer(after: reported, failures: state.failures, wake)
  }

  /// Wakes the engine when the next try is due: after the server's `Retry-After`,
  /// or the policy's backoff for this many failures in a row.
  private func retryTimer(after error: CatalogError, failures: Int, _ wake: AsyncStream<Wakeup>.Continuation)
    -> Task<Void, Never>
  {
    let delay = error.retryAfter ?? retrying.policy.delay(after: error, attempt: failures, random: retrying.random())
    let clock = retrying.clock
    return Task {
      guard (try? await clock.sleep(for: delay)) != nil else { return }
      wake.yield(.retryDue)
    }
  }

  /// What a stopped sync reports in `.failed(lastError:)`: the catalog's
  /// `CatalogError` as it is, a store failure mapped as stage 06 maps it (a full
  /// disk is `.storage(.full)`), anything else as storage that could not be
  /// used. Cancellation is thrown on: it is the one thing that ends the engine.
  private func reported(_ error: any Error) throws -> CatalogError {
    switch error {
    case is CancellationError: throw error
    case let error as CatalogError: error
    case let error as SQLiteError: CatalogErrorMapper.map(error)
    case let error as LocalDataSourceError: CatalogErrorMapper.map(error)
    default: .storage(.unavailable)
    }
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension ProductSyncEngine: OutboxSyncing {}
