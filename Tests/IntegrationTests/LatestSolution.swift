import CourseClock
import Foundation

@testable import Solution06

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The only file of the integration tests that names the reference solution.
///
/// The tests speak in plain values (ids, titles, origins) and ask this file
/// whether an error is the one the solution should throw. To run them against
/// a later stage (stage 07's store and outbox), change the import, the
/// factories and the expectations here, and `integrationStage` in Package.swift.
enum LatestSolution {
  static let name = "Solution06"

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
  /// Apple's URLSession reports `networkConnectionLost`, which the mapper calls
  /// `.offline`. swift-corelibs-foundation reports libcurl's "partial file" as
  /// `URLError(.unknown)` (-1), which the mapper's table does not list, so on
  /// Linux it becomes `.invalidData` naming the code.
  static func isCutMidBody(_ error: any Error) -> Bool {
    switch error as? CatalogError {
    case .offline?: true
    case .invalidData(let text)?: text.contains("\(URLError.Code.unknown.rawValue)")
    default: false
    }
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
