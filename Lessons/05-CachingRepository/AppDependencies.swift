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

  /// The real chain: URLSession → remote data source, SQLite store → caching repository.
  ///
  /// Stage 05: the repository caches in memory and in the SQLite file at
  /// `databasePath`, and reads the wall clock here, the one place that calls `Date()`.
  /// The file holds only a cache, so one that is not a readable database is
  /// moved aside and the cache starts empty (`openOrReset(path:)`).
  /// - Parameters:
  ///   - databasePath: The SQLite file of the disk cache, such as one in Application Support.
  ///   - baseURL: Where the Catalog API lives; the real DummyJSON service by default.
  ///   - session: The session to send requests through.
  ///   - report: Where failures the caller never sees go (a cache write or a
  ///     background refresh that failed, a disk read counted as a miss): the app's
  ///     log. Standard error unless the app passes its own.
  /// - Throws: `SQLiteError` when the file can't be opened or migrated for another
  ///   reason, such as a lock another process holds or a schema newer than this app;
  ///   a file system error when an unreadable file can't be moved aside.
  static func live(
    databasePath: String, baseURL: URL = catalogURL, session: URLSession = .shared,
    report: @escaping @Sendable (CacheDiagnostic) -> Void = reportToStandardError
  ) throws -> Self {
    let remote = URLSessionProductRemoteDataSource(baseURL: baseURL, session: session)
    let store = try SQLiteProductLocalDataSource.openOrReset(path: databasePath)
    let repository = CachingProductRepository(remote: remote, store: store, now: { Date() }, diagnostics: report)
    return AppDependencies(productRepository: repository)
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
      throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
    }
    return RepositoryAnswer(value: product, origin: .memory, fetchedAt: Self.fetchedAt, isStale: false)
  }
}
