import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

@Suite(.timeLimit(.minutes(1)))
struct DefaultProductRepositoryTests {
  @Test func asksTheRemoteSourceForTheFirstPage() async {
    let remote = SpyProductRemoteDataSource(
      page: ProductPage(products: [.sample(id: 1), .sample(id: 2)], total: 2, skip: 0, limit: 2))
    let repository = DefaultProductRepository(remote: remote)
    guard
      let products = await guide.value(
        of: 1, "products() should return the remote page's products [1, 2]", { try await repository.products() })
    else { return }
    let requests = await remote.pageRequests
    #expect(
      products.map(\.id) == [1, 2] && requests == ["limit 30, skip 0"],
      guide.task(
        1,
        "expected one page request with limit 30, skip 0, and its products [1, 2]; the source saw \(requests), and products() returned \(products.map(\.id))"
      )
    )
  }

  @Test func passesOneProductThrough() async {
    let remote = SpyProductRemoteDataSource(
      page: ProductPage(products: [.sample(id: 9, title: "Kettle")], total: 1, skip: 0, limit: 1))
    let repository = DefaultProductRepository(remote: remote)
    guard
      let product = await guide.value(
        of: 1, "product(id: 9) should return the source's product 9, Kettle", { try await repository.product(id: 9) })
    else { return }
    let requests = await remote.productRequests
    #expect(
      product.title == "Kettle" && requests == [9],
      guide.task(
        1,
        "expected one request for product 9 and its product, Kettle; the source saw \(requests), and product(id: 9) returned product \(product.id), \(product.title)"
      )
    )
  }

  @Test func letsTheDataLayersErrorsThrough() async {
    let remote = SpyProductRemoteDataSource(page: ProductPage(products: [], total: 0, skip: 0, limit: 0))
    let repository = DefaultProductRepository(remote: remote)
    await #expect(
      throws: RemoteDataSourceError.http(status: 404, message: "Product with id '404' not found"),
      guide.task(1, "the source's 404 for product 404 should reach the caller unchanged")
    ) {
      try await repository.product(id: 404)
    }
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a test, with a note naming Task 1, until `DefaultProductRepository`
  /// asks its remote source for the first page, limit 30 and skip 0: a test of
  /// the live wiring checks that request too, and would blame Task 7 for it.
  static var afterTask1: Self {
    .enabled(
      guide.task(
        1,
        "skipped until products() asks the remote source for one page with limit 30, skip 0 (asksTheRemoteSourceForTheFirstPage); this test checks that request through the live wiring"
      )
    ) { await repositoryIsDone.value }
  }
}

/// Task 1's check, run once for every test that needs it, and bounded: it runs
/// before any test starts, where a `products()` that never returns would hang the run.
private let repositoryIsDone = Task { await boundedCheck { await repositoryAsksForTheFirstPage() } ?? false }

/// Whether `products()` asks a spy remote source for the first page, and nothing else.
private func repositoryAsksForTheFirstPage() async -> Bool {
  let remote = SpyProductRemoteDataSource(page: ProductPage(products: [], total: 0, skip: 0, limit: 30))
  do {
    _ = try await DefaultProductRepository(remote: remote).products()
  } catch {
    // The request is what matters here; asksTheRemoteSourceForTheFirstPage reports the answer.
  }
  return await remote.pageRequests == ["limit 30, skip 0"]
}
