/// Spy: a `ProductRepository` for tests that records every call and answers
/// from a script.
///
/// A test hands it to the view model and then asks it what happened:
/// `productsCallCount` says how often the view model fetched. In an app this
/// file lives in the test target. Here it sits with the stage's code, because
/// one test folder is compiled against both the lesson and the solution; no
/// app code uses it.
actor SpyProductRepository {
  /// How many times `products()` has been called.
  private(set) var productsCallCount = 0
  /// What the next calls to `products()` answer, in order.
  private var answers: [Result<[Product], any Error>]

  /// - Parameter answers: One answer per call to `products()`; the last one
  ///   repeats for every later call.
  init(answers: [Result<[Product], any Error>]) {
    precondition(!answers.isEmpty, "a spy needs at least one answer")
    self.answers = answers
  }

  func products() async throws -> [Product] {
    productsCallCount += 1
    let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
    return try answer.get()
  }

  /// The list screen never asks for one product, so every id is missing.
  func product(id: Int) async throws -> Product {
    throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension SpyProductRepository: ProductRepository {}
