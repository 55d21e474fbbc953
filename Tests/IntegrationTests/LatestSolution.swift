import Foundation

@testable import Solution05

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The only file of the integration tests that names the reference solution.
///
/// The tests speak in plain values (ids, titles, origins) and ask this file
/// whether an error is the one the solution should throw. To run them against
/// a later stage (stage 06's `CatalogError`, stage 07's store), change the
/// import, the factories and the expectations here, and `integrationStage` in
/// Package.swift.
enum LatestSolution {
  static let name = "Solution05"

  // MARK: The solution's objects, made as the app's composition root makes them

  static func remote(_ baseURL: URL, _ session: URLSession) -> any ProductRemoteDataSource {
    URLSessionProductRemoteDataSource(baseURL: baseURL, session: session)
  }

  /// A page as plain values.
  static func page(_ baseURL: URL, _ session: URLSession, limit: Int, skip: Int) async throws -> (
    ids: [Int], titles: [String], total: Int
  ) {
    let page = try await remote(baseURL, session).products(limit: limit, skip: skip)
    return (page.products.map(\.id), page.products.map(\.title), page.total)
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
      let now = Date(timeIntervalSince1970: 1_764_547_200)
      repository = CachingProductRepository(
        remote: LatestSolution.remote(baseURL, session), store: InMemoryProductCacheStore(), now: { now })
    }

    /// Where the answer came from (`network`, `memory` or `disk`), whether it is stale, and its ids.
    func read() async throws -> (origin: String, isStale: Bool, ids: [Int]) {
      let answer = try await repository.products(policy: .networkFirst)
      return ("\(answer.origin)", answer.isStale, answer.value.map(\.id))
    }
  }

  // MARK: What each failure should become

  /// A refused connection (a closed port). Solution05 keeps only `.offline` for
  /// `notConnectedToInternet`; anything else on the way is `.transport`.
  static func isRefusedConnection(_ error: any Error) -> Bool {
    error as? RemoteDataSourceError == .transport("URLError \(URLError.Code.cannotConnectToHost.rawValue)")
  }

  /// A server that never answered before the request's timeout.
  static func isTimedOut(_ error: any Error) -> Bool {
    error as? RemoteDataSourceError == .transport("URLError \(URLError.Code.timedOut.rawValue)")
  }

  /// A connection that closed halfway through the body it promised; Solution05
  /// calls it a transport failure. Apple's URLSession reports `networkConnectionLost`;
  /// swift-corelibs-foundation reports libcurl's "partial file" as `unknown` (-1).
  static func isCutMidBody(_ error: any Error) -> Bool {
    [URLError.Code.networkConnectionLost, .unknown].contains { code in
      error as? RemoteDataSourceError == .transport("URLError \(code.rawValue)")
    }
  }

  /// A 200 with an HTML page (a captive portal): Solution05 fails to decode it.
  /// (Stage 06 calls this `.offline`: the portal stands between the device and the catalog.)
  static func isHTMLInsteadOfJSON(_ error: any Error) -> Bool {
    guard case .decoding = error as? RemoteDataSourceError else { return false }
    return true
  }

  /// A 429. Solution05 keeps the status and the message but not Retry-After;
  /// stage 06's `CatalogError.rateLimited(retryAfter:)` keeps that too.
  static func isRateLimited(_ error: any Error, retryAfter seconds: Int) -> Bool {
    guard case .http(429, _) = error as? RemoteDataSourceError else { return false }
    return true
  }

  /// A 404 for a missing product.
  static func isNotFound(_ error: any Error) -> Bool {
    guard case .http(404, _) = error as? RemoteDataSourceError else { return false }
    return true
  }
}
