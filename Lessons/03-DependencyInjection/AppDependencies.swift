import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The composition root: the one place that builds the app's object graph.
///
/// Docs/03-DependencyInjection.md, Task 7, and "The composition root".
@MainActor
struct AppDependencies: Sendable {
  let productRepository: any ProductRepository

  /// What the app runs on at launch (Task 7).
  ///
  /// - Parameters:
  ///   - baseURL: Where the Catalog API lives.
  ///   - session: The app's URL session.
  static func live(baseURL: URL = catalogURL, session: URLSession = .shared) -> AppDependencies {
    // TODO: Task 7 (Docs/03-DependencyInjection.md).
    AppDependencies(
      productRepository: UnwiredProductRepository(
        hint: "AppDependencies.live(baseURL:session:) should build the app's real object graph"))
  }

  /// What SwiftUI previews run on (Task 7).
  // TODO: Task 7 (Docs/03-DependencyInjection.md).
  static let preview = AppDependencies(
    productRepository: UnwiredProductRepository(hint: "AppDependencies.preview should build the previews' graph"))

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

/// Given: canned data that ships with the app for its previews ("Test doubles, by role").
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

/// Stands in until Task 7 wires the real thing: every call throws `NotDoneYet`.
nonisolated struct UnwiredProductRepository: ProductRepository {
  let hint: String

  func products() async throws -> [Product] {
    throw NotDoneYet("Task 7", in: "Docs/03-DependencyInjection.md", hint)
  }

  func product(id: Int) async throws -> Product {
    throw NotDoneYet("Task 7", in: "Docs/03-DependencyInjection.md", hint)
  }
}
