import Foundation
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

// Test doubles, named by role. They live with the tests, never in the app.

/// Stub: canned answers, nothing recorded.
struct StubProductRepository: ProductRepository {
  var answer: Result<[Product], RemoteDataSourceError>

  func products() async throws -> [Product] { try answer.get() }
  func product(id: Int) async throws -> Product {
    guard let product = try answer.get().first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: nil)
    }
    return product
  }
}

/// Spy: records every call, answers from a script, and can hold calls until the
/// test releases them, so a test can look at the screen while a load is running.
actor SpyProductRepository: ProductRepository {
  private(set) var productsCallCount = 0
  private var answers: [Result<[Product], RemoteDataSourceError>]
  private var holdsCalls: Bool
  private var held: [CheckedContinuation<Void, Never>] = []
  /// Yields once per call to `products()`.
  nonisolated let calls: AsyncStream<Void>
  private let callsContinuation: AsyncStream<Void>.Continuation

  /// - Parameters:
  ///   - answers: One answer per call; the last one repeats.
  ///   - holdsCalls: Whether calls wait for `release()` before answering.
  init(answers: [Result<[Product], RemoteDataSourceError>], holdsCalls: Bool = false) {
    precondition(!answers.isEmpty, "a spy needs at least one answer")
    self.answers = answers
    self.holdsCalls = holdsCalls
    (calls, callsContinuation) = AsyncStream.makeStream(of: Void.self)
  }

  func products() async throws -> [Product] {
    productsCallCount += 1
    let answer = answers.count > 1 ? answers.removeFirst() : answers[0]
    callsContinuation.yield()
    if holdsCalls { await withCheckedContinuation { held.append($0) } }
    return try answer.get()
  }

  func product(id: Int) async throws -> Product {
    throw RemoteDataSourceError.http(status: 404, message: nil)
  }

  /// Lets every held call answer, and answers later calls at once.
  func release() {
    holdsCalls = false
    for call in held { call.resume() }
    held.removeAll()
  }

  /// Returns at the next call to `products()` not yet waited for, or early when cancelled.
  nonisolated func nextCall() async {
    var iterator = calls.makeAsyncIterator()
    _ = await iterator.next()
  }
}

/// Unimplemented: fails the test if anything calls it.
struct UnimplementedProductRepository: ProductRepository {
  func products() async throws -> [Product] {
    Issue.record("UnimplementedProductRepository.products() was called; this test expects no fetch")
    throw CancellationError()
  }

  func product(id: Int) async throws -> Product {
    Issue.record("UnimplementedProductRepository.product(id:) was called; this test expects no fetch")
    throw CancellationError()
  }
}

/// Spy on the data source, for the repository's own tests.
actor SpyProductRemoteDataSource: ProductRemoteDataSource {
  private(set) var pageRequests: [(limit: Int, skip: Int)] = []
  private(set) var productRequests: [Int] = []
  let page: ProductPage

  init(page: ProductPage) { self.page = page }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    pageRequests.append((limit, skip))
    return page
  }

  func product(id: Int) async throws -> Product {
    productRequests.append(id)
    guard let product = page.products.first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
    }
    return product
  }
}

extension Product {
  static func sample(id: Int, title: String = "Sample") -> Product {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: 1, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 1_746_006_062))
  }
}
