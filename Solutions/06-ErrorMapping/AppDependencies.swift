import CourseSQLite
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The composition root: the one place that builds the app's object graph.
///
/// The app makes `.live()` at launch, SwiftUI previews use `.preview`, and tests
/// pass their own doubles to `init(productRepository:)`. Nothing else constructs
/// a repository or a data source.
@MainActor
struct AppDependencies: Sendable {
  let productRepository: any ProductRepository

  /// The real chain: URLSession → remote data source → retries, SQLite store → caching repository.
  ///
  /// Stage 05: the repository caches in memory and in the SQLite file at
  /// `databasePath`, and reads the wall clock here, the one place that calls `Date()`.
  /// The file holds only a cache, so one that is not a readable database is
  /// moved aside and the cache starts empty (`openOrReset(path:)`).
  ///
  /// Stage 06: failed reads are retried (`RetryPolicy.standard`), and requests go
  /// through a session made for the app (`sessionConfiguration()`), not `URLSession.shared`.
  /// - Parameters:
  ///   - databasePath: The SQLite file of the disk cache, such as one in Application Support.
  ///   - baseURL: Where the Catalog API lives; the real DummyJSON service by default.
  ///   - session: The session to send requests through; `nil` makes the app's own.
  ///   - clock: What retries wait on.
  ///   - report: Where failures the caller never sees go (a cache write or a
  ///     background refresh that failed, a disk read counted as a miss): the app's
  ///     log. Standard error unless the app passes its own.
  /// - Throws: `CatalogError.storage` when the file can't be opened or migrated for
  ///   another reason, such as a lock another process holds (`.busy`) or a schema
  ///   newer than this app, or when an unreadable file can't be moved aside (`.unavailable`).
  static func live(
    databasePath: String, baseURL: URL = catalogURL, session: URLSession? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    report: @escaping @Sendable (CacheDiagnostic) -> Void = reportToStandardError
  ) throws -> Self {
    let now: @Sendable () -> Date = { Date() }
    let session = session ?? URLSession(configuration: sessionConfiguration())
    let remote = RetryingProductRemoteDataSource(
      wrapping: URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: now),
      policy: .standard, clock: clock, random: { Double.random(in: 0..<1) })
    let store: SQLiteProductLocalDataSource
    do {
      store = try SQLiteProductLocalDataSource.openOrReset(path: databasePath)
    } catch let error as SQLiteError {
      throw try Self.errorMapper().catalogError(from: error, now: now())
    } catch {
      // Only moving an unreadable file aside throws anything else: the device's storage failed.
      throw CatalogError.storage(.unavailable)
    }
    let repository = CachingProductRepository(remote: remote, store: store, now: now, diagnostics: report)
    return AppDependencies(productRepository: repository)
  }

  // MARK: Stage 06, Tasks 2 to 4: the boundary's mapper

  /// The app's error mapper: `CatalogErrorMapper`, the boundary's tables.
  ///
  /// Finished code asks this function for the mapper, such as the remote source
  /// (by default) and `live()`; the tests reach it through here and through the
  /// remote source, never by its name.
  nonisolated static func errorMapper() -> any CatalogErrorMapping {
    CatalogErrorMapper()
  }

  // MARK: Stage 06, Task 8: configure the app's session

  /// The configuration of the app's own session.
  ///
  /// - A request gives up after 15 s (`timeoutIntervalForRequest`), not the
  ///   default 60 s: a person looking at a spinner leaves long before a minute,
  ///   and the retry policy and the cache do better with a prompt `.timedOut`.
  /// - No `URLCache` and no cached responses: the repository's own cache decides
  ///   what is fresh. An HTTP cache underneath would answer "network" requests
  ///   from disk, so network-first could be neither.
  /// - Ephemeral: no cookies or credentials kept on disk.
  nonisolated static func sessionConfiguration() -> URLSessionConfiguration {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 15
    configuration.timeoutIntervalForResource = 60
    configuration.urlCache = nil
    configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
    return configuration
  }

  /// Writes what the caching repository noticed and did not throw to standard
  /// error: `live`'s `report` unless the app passes its own (its `os.Logger`).
  nonisolated static func reportToStandardError(_ diagnostic: CacheDiagnostic) {
    FileHandle.standardError.write(Data("RepositoryCourse cache: \(diagnostic)\n".utf8))
  }

  /// Canned products and no network, for SwiftUI previews.
  static let preview = AppDependencies(productRepository: PreviewProductRepository())

  /// The real Catalog API.
  static var catalogURL: URL {
    guard let url = URL(string: "https://dummyjson.com") else {
      preconditionFailure("https://dummyjson.com is a valid URL")
    }
    return url
  }

  /// Makes the list screen's view model from these dependencies.
  @MainActor
  func makeProductListViewModel() -> ProductListViewModel {
    ProductListViewModel(repository: productRepository)
  }
}

/// Answers with a few fixed products, instantly, for previews.
nonisolated struct PreviewProductRepository: ProductRepository {
  static let products: [Product] = [
    Product(
      id: 1, title: "Essence Mascara Lash Princess", description: "Volumizing, lengthening mascara.",
      category: "beauty", price: Decimal(string: "9.99") ?? 0, discountPercentage: 10.48, rating: 2.56,
      stock: 99, brand: "Essence", thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 1_746_006_062.053)),
    Product(
      id: 16, title: "Apple", description: "Fresh and crisp apples.",
      category: "groceries", price: Decimal(string: "1.99") ?? 0, discountPercentage: 12.62, rating: 2.96,
      stock: 8, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 1_746_006_062.053)),
  ]

  /// Stage 05: when the canned products were "fetched".
  static let fetchedAt = Date(timeIntervalSince1970: 1_746_006_062.053)

  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]> {
    RepositoryAnswer(value: Self.products, origin: .memory, fetchedAt: Self.fetchedAt, isStale: false)
  }

  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product> {
    guard let product = Self.products.first(where: { $0.id == id }) else {
      throw CatalogError.notFound
    }
    return RepositoryAnswer(value: product, origin: .memory, fetchedAt: Self.fetchedAt, isStale: false)
  }
}
