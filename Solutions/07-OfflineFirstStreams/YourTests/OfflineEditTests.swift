import CourseClock
import FakeCatalog
import Foundation
import Testing

@testable import Solution07

/// The whole offline path through its seams: a store on its own database, the
/// repository in front of it, the engine, and a fake of the real catalog.
struct OfflineEditTests {
  let api = FakeCatalogAPI()
  let store: OfflineProductStore
  let repository: OfflineFirstProductRepository
  let engine: any OutboxSyncing
  let remote: URLSessionProductRemoteDataSource

  init() throws {
    remote = URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: { Date() })
    store = try OfflineProductStore(path: ":memory:")
    repository = OfflineFirstProductRepository(store: store, remote: remote, now: { Date() })
    engine = OfflineAppDependencies.makeSyncEngine(store: store, remote: remote, clock: TestClock(), random: { 0 })
  }

  /// The first product as the device holds it after a refresh, then renamed while offline.
  func renameOffline(to titles: [String]) async throws -> Product {
    try await repository.refresh()
    api.inject(.offline)
    var product = try #require(try await store.products().first { $0.id == 1 })
    for title in titles {
      product.title = title
      try await repository.update(product)
    }
    return product
  }

  @Test func anOfflineEditShowsAtOnceAndWaitsInTheOutbox() async throws {
    _ = try await renameOffline(to: ["Renamed"])
    #expect(try await store.products().first { $0.id == 1 }?.title == "Renamed")
    #expect(try await store.pendingCount() == 1)
  }

  @Test func aSyncBackOnlineSendsTheEditOnce() async throws {
    _ = try await renameOffline(to: ["Renamed"])
    api.clearFaults()
    try await engine.syncNow()
    #expect(try await remote.product(id: 1).title == "Renamed")
    #expect(try await store.pendingCount() == 0)
    #expect(api.requests.filter { $0.method != "GET" }.count == 1)
  }

  @Test func twoEditsReachTheCatalogInTheOrderTheyWereMade() async throws {
    _ = try await renameOffline(to: ["First", "Second"])
    api.clearFaults()
    try await engine.syncNow()
    #expect(try await remote.product(id: 1).title == "Second")
    let titles = api.requests.filter { $0.method != "GET" }.compactMap { request in
      request.body.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }?["title"] as? String
    }
    #expect(titles == ["First", "Second"])
  }

  @Test func aProductAddedThenEditedOfflineReachesTheCatalogWithTheEdit() async throws {
    try await repository.refresh()
    api.inject(.offline)
    var added = try #require(
      try await repository.add(
        Product(
          id: 0, title: "Kettle", description: "A kettle", category: "kitchen-accessories", price: 25,
          discountPercentage: 0, rating: 4, stock: 3, brand: nil, thumbnail: nil, updatedAt: Date())))
    added.stock = 9
    try await repository.update(added)
    api.clearFaults()
    try await engine.syncNow()
    let id = try #require(try await store.products().first { $0.title == "Kettle" }?.id)
    #expect(id > 0)
    #expect(try await remote.product(id: id).stock == 9)
    #expect(try await store.pendingCount() == 0)
  }
  @Test func theEngineOutlivesAFailedSyncAndSendsTheEditOnceTheCatalogIsBack() async throws {
    _ = try await renameOffline(to: ["Renamed"])
    let (connectivity, online) = AsyncStream.makeStream(of: Bool.self)
    let running = Task { try await engine.run(connectivity: connectivity) }
    // Online, but the catalog is still unreachable: the first sync fails.
    online.yield(true)
    var (synced, failed) = (false, false)
    for await status in await engine.statuses() {
      if case .syncing = status { synced = true }
      if case .failed = status, !failed {
        // The catalog comes back, and so does the network: the engine should still be there.
        failed = true
        api.clearFaults()
        online.yield(true)
      }
      if status == .idle, synced { break }
    }
    online.finish()
    let outcome = await running.result
    #expect(failed, "the sync with the catalog unreachable failed")
    #expect(throws: Never.self, "run(connectivity:) ends only when connectivity does") { try outcome.get() }
    #expect(try await remote.product(id: 1).title == "Renamed")
    #expect(try await store.pendingCount() == 0)
  }
}
