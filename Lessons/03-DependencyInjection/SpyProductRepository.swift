import LessonSupport

/// The spy the view model's tests use to see how it called its repository.
///
/// Docs/03-DependencyInjection.md, Task 2, says what it records and how it
/// answers; "Test doubles, by role" says why it sits in the lesson folder and
/// never in an app target.
actor SpyProductRepository {
  /// What the tests read about the calls to `products()` (Task 2).
  private(set) var productsCallCount = 0
  /// The spy's script (Task 2).
  private var answers: [Result<[Product], any Error>]

  /// - Parameter answers: The script the test gives the spy (Task 2).
  init(answers: [Result<[Product], any Error>]) {
    precondition(!answers.isEmpty, "a spy needs at least one answer")
    self.answers = answers
  }

  func products() async throws -> [Product] {
    throw NotDoneYet(
      "Task 2", in: "Docs/03-DependencyInjection.md", "the spy's products() should do a spy's job")
  }

  /// Given: the list screen never asks for one product.
  func product(id: Int) async throws -> Product {
    throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension SpyProductRepository: ProductRepository {}
