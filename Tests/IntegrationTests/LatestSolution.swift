import CourseClock
import Foundation
import Synchronization

@testable import Solution07

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The only file of the integration tests that names the reference solution.
///
/// The tests speak in plain values (ids, titles, origins) and ask this file
/// whether an error is the one the solution should throw. To run them against
/// a later stage, change the import, the factories and the expectations here,
/// and `integrationStage` in Package.swift. Stage 07 keeps every stage 06 type,
/// so the reads below are stage 06's code; `OfflineApp` is stage 07's own.
enum LatestSolution {
  static let name = "Solution07"

  /// The wall-clock time the solution reads; only an HTTP-date `Retry-After` would use it.
  private static let now: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_764_547_200) }

  // MARK: The solution's objects, made as the app's composition root makes them

  static func remote(_ baseURL: URL, _ session: URLSession) -> any ProductRemoteDataSource {
    URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: now)
  }

  /// A page as plain values.
  static func page(_ baseURL: URL, _ session: URLSession, limit: Int, skip: Int) async throws -> (
    ids: [Int], titles: [String], total: Int
  ) {
    let page = try await remote(baseURL, session).products(limit: limit, skip: skip)
    return (page.products.map(\.id), page.products.map(\.title), page.total)
  }

  /// A page read through the app's retry policy (`RetryPolicy.standard`), whose waits sleep on `clock`.
  static func pageWithRetries(
    _ baseURL: URL, _ session: URLSession, clock: TestClock, limit: Int, skip: Int
  ) async throws -> [Int] {
    let retrying = RetryingProductRemoteDataSource(
      wrapping: remote(baseURL, session), policy: .standard, clock: clock, random: { 0.5 })
    return try await retrying.products(limit: limit, skip: skip).products.map(\.id)
  }

  /// One product as plain values.
  static func product(_ baseURL: URL, _ session: URLSession, id: Int) async throws -> (
    id: Int, title: String, price: Decimal
  ) {
    let product = try await remote(baseURL, session).product(id: id)
    return (product.id, product.title, product.price)
  }

  /// The list screen's read through the caching repository: network first, the cache when the network fails.
  final class ListReader: Sendable {
    private let repository: CachingProductRepository

    init(_ baseURL: URL, _ session: URLSession) {
      repository = CachingProductRepository(
        remote: LatestSolution.remote(baseURL, session), store: InMemoryProductCacheStore(), now: LatestSolution.now)
    }

    /// Where the answer came from (`network`, `memory` or `disk`), whether it is stale, and its ids.
    func read() async throws -> (origin: String, isStale: Bool, ids: [Int]) {
      let answer = try await repository.products(policy: .networkFirst)
      return ("\(answer.origin)", answer.isStale, answer.value.map(\.id))
    }
  }

  // MARK: Stage 07: the store, the outbox and the sync engine

  /// The offline-first app of stage 07: a store in memory, the repository over
  /// it, and a sync engine whose retries wait on `clock`.
  final class OfflineApp: Sendable {
    private let store: OfflineProductStore
    private let repository: OfflineFirstProductRepository
    private let engine: ProductSyncEngine
    private let recorder: KeyRecorder

    /// - Parameter key: The idempotency key of every outbox entry this app makes.
    init(_ baseURL: URL, _ session: URLSession, clock: TestClock, key: String) throws {
      store = try OfflineProductStore(path: ":memory:", makeKey: { key })
      recorder = KeyRecorder(URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: now))
      repository = OfflineFirstProductRepository(store: store, remote: recorder, now: LatestSolution.now)
      engine = ProductSyncEngine(store: store, remote: recorder, clock: clock, random: { 0.5 })
    }

    /// Loads the first page through the store; returns how many products the store holds.
    func loadFirstPage() async throws -> Int {
      try await repository.refresh()
      return try await store.products().count
    }

    /// Renames a product on the device; returns how many changes wait in the outbox.
    func rename(id: Int, to title: String) async throws -> Int {
      guard var product = try await store.products().first(where: { $0.id == id }) else {
        throw CatalogError.notFound
      }
      product.title = title
      try await repository.update(product)
      return try await store.pendingCount()
    }

    /// Adds a product on the device; returns its temporary id.
    func add(title: String) async throws -> Int {
      let product = Product(
        id: 0, title: title, description: "Added over a socket", category: "kitchen-accessories", price: 3,
        discountPercentage: 0, rating: 0, stock: 1, brand: nil, thumbnail: nil, updatedAt: LatestSolution.now())
      return try await repository.add(product)?.id ?? 0
    }

    /// The ids of the device's products titled `title`.
    func ids(title: String) async throws -> [Int] {
      try await store.products().filter { $0.title == title }.map(\.id)
    }

    /// A product's title as the screen shows it, from the store.
    func title(id: Int) async throws -> String? {
      try await store.products().first { $0.id == id }?.title
    }

    /// The first pending write as it will go over the wire.
    func pendingWrite() async throws -> (method: String, path: String, body: Data?, key: String)? {
      guard let entry = try await store.nextPending() else { return nil }
      return (entry.method, "products/\(entry.productID)", entry.body, entry.idempotencyKey)
    }

    /// Sends the outbox, with the engine's retries.
    func sync() async throws { try await engine.syncNow() }

    func pending() async throws -> Int { try await store.pendingCount() }

    /// The idempotency key of every attempt the engine sent, in order.
    var sentKeys: [String] { recorder.keys.withLock { $0 } }
  }

  /// The real remote, noting the idempotency key of every write it sends.
  private final class KeyRecorder: ProductSyncRemoteDataSource {
    let keys = Mutex<[String]>([])
    private let remote: URLSessionProductRemoteDataSource

    init(_ remote: URLSessionProductRemoteDataSource) {
      self.remote = remote
    }

    func products(limit: Int, skip: Int) async throws -> ProductPage {
      try await remote.products(limit: limit, skip: skip)
    }

    func product(id: Int) async throws -> Product { try await remote.product(id: id) }

    func send(_ entry: OutboxEntry, idempotencyKey: String, baseVersion: String?) async throws -> WriteReceipt {
      keys.withLock { $0.append(idempotencyKey) }
      return try await remote.send(entry, idempotencyKey: idempotencyKey, baseVersion: baseVersion)
    }
  }

  // MARK: What each failure should become

  /// A refused connection (a closed port): no route to the catalog.
  static func isRefusedConnection(_ error: any Error) -> Bool {
    error as? CatalogError == .offline
  }

  /// A server that never answered before the request's timeout.
  static func isTimedOut(_ error: any Error) -> Bool {
    error as? CatalogError == .timedOut
  }

  /// A connection that closed halfway through the body it promised.
  ///
  /// Apple's URLSession reports `networkConnectionLost`; swift-corelibs-foundation
  /// reports libcurl's "partial file" as `URLError(.unknown)` (-1). Stage 06's
  /// mapper calls both `.connectionLost`, which the retry policy retries.
  static func isCutMidBody(_ error: any Error) -> Bool {
    error as? CatalogError == .connectionLost
  }

  /// A 200 with an HTML page: a captive portal stands between the device and the catalog.
  static func isHTMLInsteadOfJSON(_ error: any Error) -> Bool {
    error as? CatalogError == .offline
  }

  /// A 429 that says how long to wait.
  static func isRateLimited(_ error: any Error, retryAfter seconds: Int) -> Bool {
    error as? CatalogError == .rateLimited(retryAfter: .seconds(seconds))
  }

  /// A 404 for a missing product.
  static func isNotFound(_ error: any Error) -> Bool {
    error as? CatalogError == .notFound
  }
}
