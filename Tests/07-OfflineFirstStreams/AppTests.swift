import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// The last stage is an app: one composition root wires store, repository,
/// engine and connectivity, and the screen depends on a protocol.
@Suite(.timeLimit(.minutes(1)))
@MainActor
struct AppTests {
  /// The app on `path`, over the fake catalog, following `connectivity`.
  private func app(
    _ api: FakeCatalogAPI, path: String, connectivity: AsyncStream<Bool>,
    random: @escaping @Sendable () -> Double = { 0 },
    report: @escaping @Sendable (any Error) -> Void = OfflineAppDependencies.reportToStandardError
  ) throws -> OfflineAppDependencies {
    OfflineAppDependencies(
      store: try OfflineProductStore(path: path),
      remote: URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow),
      connectivity: connectivity, retryPolicy: quickRetries, clock: api.clock, random: random, now: testNow,
      report: report)
  }

  /// The app's engine runs for the app's life: a database that refuses while the
  /// engine decides whether to sync is a failed sync, and the write goes once it
  /// recovers. The app's `report` hears an engine that stops; this one must not stop.
  @Test func theAppsEngineOutlivesADatabaseThatRefusesAndReportsNothing() async throws {
    guard await requireTask1(for: 7) else { return }
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let file = TemporaryDatabase()
    let reports = Mutex<[String]>([])
    let (online, network) = AsyncStream.makeStream(of: Bool.self)
    // A jitter of 0.5: the first backoff is 250 ms on the test clock, which the test advances.
    let app = try app(
      api, path: file.path, connectivity: online, random: { 0.5 },
      report: { error in reports.withLock { $0.append("\(error)") } })
    defer { app.shutDown() }
    let repository = app.repository
    guard await attempt(4, "an add", for: 7, { @Sendable in try await repository.add(draft()) }) != nil else { return }
    let statuses = StreamReader(await app.engine.statuses())
    try file.refuseOutboxReads(true)
    network.yield(true)
    let failed = await waitForStatus(statuses) { @Sendable in if case .failed = $0 { true } else { false } }
    try file.refuseOutboxReads(false)
    let before = statuses.values.count
    if failed {
      await api.clock.waitForSleepersWithinSafetyLimit()
      api.clock.advance(by: .seconds(60))
    }
    let drained = failed ? await waitForStatus(statuses, after: before) { @Sendable in $0 == .idle } : false
    network.finish()
    await app.engineStopped()
    let kettles = api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    let heard = reports.withLock { $0 }
    #expect(
      failed && drained && kettles == 1 && heard.isEmpty,
      guide.task(
        7,
        "expected the app's engine to say .failed while its outbox could not be read, then send the add once when the retry was due, and report nothing, since it never stopped; got statuses \(describe(statuses.values)), \(kettles) kettle(s) in the catalog, and \(heard.isEmpty ? "nothing reported" : "report heard the engine stop: \(heard)")"
      ))
  }

  @Test func aWriteMadeOfflineIsSentByTheAppsOwnEngineAfterARestart() async throws {
    guard await requireTask1(for: 7) else { return }
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let file = TemporaryDatabase()
    let (offline, stayOffline) = AsyncStream.makeStream(of: Bool.self)
    let first = try app(api, path: file.path, connectivity: offline)
    stayOffline.yield(false)
    let repository = first.repository
    guard await attempt(4, "an add", for: 7, { @Sendable in try await repository.add(draft()) }) != nil else { return }
    first.shutDown()
    await first.engineStopped()
    // A new launch on the same file: its engine sends what the last one left.
    let (online, network) = AsyncStream.makeStream(of: Bool.self)
    let second = try app(api, path: file.path, connectivity: online)
    defer { second.shutDown() }
    let statuses = StreamReader(await second.engine.statuses())
    network.yield(true)
    _ = await statuses.waitFor(count: 3)
    network.finish()
    await second.engineStopped()
    let kettles = api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    let left = try await second.store.outbox()
    #expect(
      kettles == 1 && left.isEmpty,
      guide.task(
        7,
        "expected the add made before the restart sent once by the new launch's engine, got \(kettles) kettles in the catalog and \(left.count) entries left; statuses \(describe(statuses.values))"
      ))
  }

  @Test func liveOpensTheFileItWroteBefore() async throws {
    let file = TemporaryDatabase()
    let (connectivity, done) = AsyncStream.makeStream(of: Bool.self)
    defer { done.finish() }
    let outcomes = [
      Result { try OfflineAppDependencies.live(databasePath: file.path, connectivity: connectivity) },
      Result { try OfflineAppDependencies.live(databasePath: file.path, connectivity: connectivity) },
    ]
    for outcome in outcomes { (try? outcome.get())?.shutDown() }
    #expect(
      outcomes.allSatisfy { $0.failure == nil },
      guide.task(7, "expected live() to open the offline store's file twice, got \(outcomes.map { "\($0)" })"))
  }

  @Test func theListShowsTheStoreAndARefreshThatFailsKeepsIt() async throws {
    let stub = StubOfflineRepository(lists: [[realProducts[0]], [realProducts[0], realProducts[1]]])
    stub.refreshError = .offline
    let model = await OfflineProductListViewModel(repository: stub)
    let showing = Task { await model.show() }
    var shown = 0
    for _ in 0..<patienceTurns {
      shown = await model.products.count
      if shown == 2 { break }
      await Task.yield()
    }
    showing.cancel()
    await showing.value
    let (failure, refreshing) = await (model.failure, model.isRefreshing)
    let offline = await ProductListViewModel.message(for: .offline)
    #expect(
      shown == 2 && failure == offline && !refreshing,
      guide.task(
        7,
        "expected the screen to show each list the store sends (2 products last), the offline message after the failed refresh, and no spinner; got \(shown) products, \(failure.map(\.text) ?? "no message"), refreshing \(refreshing)"
      ))
  }
}

/// Sends canned lists, then stays open; its refresh fails with `refreshError` if set.
final class StubOfflineRepository: OfflineProductRepository {
  private let lists: [[Product]]
  private let error = Mutex<CatalogError?>(nil)

  init(lists: [[Product]]) {
    self.lists = lists
  }

  var refreshError: CatalogError? {
    get { error.withLock { $0 } }
    set { error.withLock { $0 = newValue } }
  }

  func observe() async throws -> AsyncStream<[Product]> {
    let (stream, continuation) = AsyncStream.makeStream(of: [Product].self)
    for list in lists { continuation.yield(list) }
    return stream
  }

  func refresh() async throws {
    if let refreshError { throw refreshError }
  }

  func loadNextPage() async throws -> Bool { false }
  func add(_ product: Product) async throws -> Product? { product }
  func update(_ product: Product) async throws {}
  func delete(id: Int) async throws {}
}
