import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

// Test doubles, named by role. They live with the tests, never in the app; the
// one you write in Task 2, SpyProductRepository, sits in the lesson folder only
// because this folder is compiled against both the lesson and the solution.

/// Stub: canned answers, nothing recorded.
struct StubProductRepository: ProductRepository {
  var answer: Result<[Product], any Error>

  func products() async throws -> [Product] { try answer.get() }

  func product(id: Int) async throws -> Product {
    guard let product = try answer.get().first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: nil)
    }
    return product
  }
}

/// Holds every call to `products()` at a gate until the test calls `release()`,
/// then lets the repository it wraps answer. A test uses it to look at the
/// screen, or start a second load, while a load is certainly running.
actor HoldingProductRepository {
  private let wrapped: any ProductRepository
  private var isHolding = true
  private var held: [CheckedContinuation<Void, Never>] = []
  /// Yields once per call to `products()`, as the call reaches the gate.
  private nonisolated let calls: AsyncStream<Void>
  private let callsContinuation: AsyncStream<Void>.Continuation

  init(wrapping wrapped: any ProductRepository) {
    self.wrapped = wrapped
    (calls, callsContinuation) = AsyncStream.makeStream(of: Void.self)
  }

  func products() async throws -> [Product] {
    callsContinuation.yield()
    if isHolding { await withCheckedContinuation { held.append($0) } }
    return try await wrapped.products()
  }

  func product(id: Int) async throws -> Product {
    try await wrapped.product(id: id)
  }

  /// Opens the gate: every held call goes on, and later calls pass at once.
  func release() {
    isHolding = false
    for call in held { call.resume() }
    held.removeAll()
  }

  /// Returns at the next call to `products()` not yet waited for, or early when
  /// the waiting task is cancelled, so `waitFor(_:unlessFinished:)` can stop it.
  nonisolated func nextCall() async {
    var iterator = calls.makeAsyncIterator()
    _ = await iterator.next()
  }
}

/// Unimplemented: fails the test if anything calls it, with a message naming
/// the task whose rule the call breaks.
struct UnimplementedProductRepository: ProductRepository {
  /// Thrown after the issue is recorded, so the caller stops.
  struct UnexpectedCall: Error {}

  /// The task whose rule a call breaks.
  var task: Int
  /// That rule, in words, such as "a new view model must not fetch".
  var rule: String

  func products() async throws -> [Product] {
    Issue.record(guide.task(task, "\(rule); UnimplementedProductRepository.products() was called"))
    throw UnexpectedCall()
  }

  func product(id: Int) async throws -> Product {
    Issue.record(guide.task(task, "\(rule); UnimplementedProductRepository.product(id: \(id)) was called"))
    throw UnexpectedCall()
  }
}

/// Spy on the data source, for the repository's own tests: it records every
/// request and answers from one page.
actor SpyProductRemoteDataSource {
  private(set) var pageRequests: [String] = []
  private(set) var productRequests: [Int] = []
  let page: ProductPage

  init(page: ProductPage) { self.page = page }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    pageRequests.append("limit \(limit), skip \(skip)")
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

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension HoldingProductRepository: ProductRepository {}

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension SpyProductRemoteDataSource: ProductRemoteDataSource {}
