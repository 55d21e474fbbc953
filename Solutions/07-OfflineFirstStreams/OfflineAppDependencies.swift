import CourseSQLite
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The offline app's composition root: store, repository, sync engine and
/// connectivity, wired in one place, with the engine's task owned here.
///
/// ```swift
/// let app = try OfflineAppDependencies.live(databasePath: path, connectivity: monitor.updates)
/// let model = app.makeProductListViewModel()
/// ```
///
/// The engine runs from `init` until `shutDown()` or until this value goes away,
/// so nothing else has to keep a task alive or remember to cancel it.
@MainActor
final class OfflineAppDependencies: Sendable {
  /// What screens use.
  let repository: any OfflineProductRepository
  /// The source of truth, for a screen that shows paging or the outbox.
  let store: OfflineProductStore
  /// The sync engine, for its statuses and conflicts.
  let engine: any OutboxSyncing
  private let engineRun: Task<Void, Never>

  /// Wires the app over one store and one catalog, and starts the engine.
  ///
  /// - Parameters:
  ///   - store: The source of truth.
  ///   - remote: The catalog; reads go through stage 06's retries in front of it.
  ///   - connectivity: `true` when the device is online; from a connectivity service.
  ///   - retryPolicy: The retries of reads and of the outbox's writes.
  ///   - clock: What every wait sleeps on: `ContinuousClock()` in the app, a `TestClock` in tests.
  ///   - random: The jitter source.
  ///   - now: The wall-clock time of the user's changes.
  ///   - conflictPolicy: Who wins a conflict.
  ///   - requestTimeout: How long one request may take, kept on `clock` whatever the platform's timeouts do.
  ///   - report: Hears it if the engine ever stops with an error, which it should not: the app's
  ///     log. Standard error unless the app passes its own.
  init(
    store: OfflineProductStore, remote: any ProductSyncRemoteDataSource, connectivity: AsyncStream<Bool>,
    retryPolicy: RetryPolicy = .standard, clock: any Clock<Duration> = ContinuousClock(),
    random: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
    now: @escaping @Sendable () -> Date = { Date() }, conflictPolicy: ConflictPolicy = .serverWins,
    requestTimeout: Duration = .seconds(30),
    report: @escaping @Sendable (any Error) -> Void = reportToStandardError
  ) {
    let remote = DeadlineRemoteDataSource(wrapping: remote, timeout: requestTimeout, clock: clock)
    let reads = RetryingProductRemoteDataSource(wrapping: remote, policy: retryPolicy, clock: clock, random: random)
    let engine = Self.makeSyncEngine(
      store: store, remote: remote, retryPolicy: retryPolicy, clock: clock, random: random,
      conflictPolicy: conflictPolicy)
    self.store = store
    self.engine = engine
    repository = OfflineFirstProductRepository(store: store, remote: reads, now: now)
    engineRun = Task {
      do {
        try await engine.run(connectivity: connectivity)
      } catch is CancellationError {
        // shutDown(), or this value went away.
      } catch {
        report(error)
      }
    }
  }

  /// The sync engine the app runs and the tests drive, sending the outbox
  /// through stage 06's retries (`retryPolicy`, on `clock` and `random`) around `remote`.
  ///
  /// - Parameters:
  ///   - store: The outbox and the products.
  ///   - remote: The catalog.
  ///   - retryPolicy: When to send a failed write again.
  ///   - clock: What the retries' waits sleep on: `ContinuousClock()` in the app, a `TestClock` in tests.
  ///   - random: The jitter source: `{ Double.random(in: 0..<1) }` in the app.
  ///   - conflictPolicy: Who wins a conflict.
  nonisolated static func makeSyncEngine(
    store: OfflineProductStore, remote: any ProductSyncRemoteDataSource, retryPolicy: RetryPolicy = .standard,
    clock: any Clock<Duration>, random: @escaping @Sendable () -> Double,
    conflictPolicy: ConflictPolicy = .serverWins
  ) -> any OutboxSyncing {
    ProductSyncEngine(
      store: store, remote: remote, retryPolicy: retryPolicy, clock: clock, random: random,
      conflictPolicy: conflictPolicy)
  }

  /// The app as it ships: the database at `databasePath`, the catalog at `baseURL`.
  ///
  /// - Throws: `CatalogError.storage` when the database can't be opened (stage 06's mapping).
  static func live(
    databasePath: String, connectivity: AsyncStream<Bool>, baseURL: URL = AppDependencies.catalogURL,
    session: URLSession? = nil
  ) throws -> OfflineAppDependencies {
    let now: @Sendable () -> Date = { Date() }
    let session = session ?? URLSession(configuration: AppDependencies.sessionConfiguration())
    let store: OfflineProductStore
    do {
      store = try OfflineProductStore(path: databasePath)
    } catch {
      throw try AppDependencies.errorMapper().catalogError(from: error, now: now())
    }
    let remote = URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: now)
    return OfflineAppDependencies(store: store, remote: remote, connectivity: connectivity, now: now)
  }

  /// Writes an engine that stopped with `error` to standard error: `init`'s
  /// `report` unless the app passes its own (its `os.Logger`).
  nonisolated static func reportToStandardError(_ error: any Error) {
    FileHandle.standardError.write(Data("RepositoryCourse sync engine stopped: \(error)\n".utf8))
  }

  /// Stops the engine; its status stream finishes.
  func shutDown() {
    engineRun.cancel()
  }

  /// Waits until the engine has stopped: after `shutDown()`, or once connectivity finished.
  func engineStopped() async {
    _ = await engineRun.result
  }

  deinit {
    engineRun.cancel()
  }

  @MainActor
  func makeProductListViewModel() -> OfflineProductListViewModel {
    OfflineProductListViewModel(repository: repository)
  }
}
