import LessonSupport

/// The app's `ProductRepository`: what the view model asks for products.
///
/// Docs/03-DependencyInjection.md, Task 1, says what it answers; "A repository
/// is the API the app sees" says why it exists.
nonisolated struct DefaultProductRepository: ProductRepository {
  /// The list screen's page size (Task 1).
  static let pageSize = 30

  private let remote: any ProductRemoteDataSource

  init(remote: any ProductRemoteDataSource) {
    self.remote = remote
  }

  func products() async throws -> [Product] {
    throw NotDoneYet(
      "Task 1", in: "Docs/03-DependencyInjection.md", "products() should answer the list screen's products")
  }

  func product(id: Int) async throws -> Product {
    throw NotDoneYet("Task 1", in: "Docs/03-DependencyInjection.md", "product(id:) should answer one product")
  }
}
