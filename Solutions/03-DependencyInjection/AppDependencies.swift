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

  /// The real chain: URLSession → remote data source → repository.
  ///
  /// - Parameters:
  ///   - baseURL: Where the Catalog API lives; the real DummyJSON service by default.
  ///   - session: The session to send requests through.
  static func live(baseURL: URL = catalogURL, session: URLSession = .shared) -> AppDependencies {
    let remote = URLSessionProductRemoteDataSource(baseURL: baseURL, session: session)
    return AppDependencies(productRepository: DefaultProductRepository(remote: remote))
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

  func products() async throws -> [Product] { Self.products }

  func product(id: Int) async throws -> Product {
    guard let product = Self.products.first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
    }
    return product
  }
}
