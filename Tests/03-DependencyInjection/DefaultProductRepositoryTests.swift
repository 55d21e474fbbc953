import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

struct DefaultProductRepositoryTests {
  @Test func asksTheRemoteSourceForTheFirstPage() async {
    let remote = SpyProductRemoteDataSource(
      page: ProductPage(products: [.sample(id: 1), .sample(id: 2)], total: 2, skip: 0, limit: 2))
    let repository = DefaultProductRepository(remote: remote)
    let products = await Result { try await repository.products() }
    #expect(
      (try? products.get())?.map(\.id) == [1, 2],
      guide.task(1, "products() should return the remote page's products [1, 2], got \(products)")
    )
    let requests = await remote.pageRequests.map { "limit \($0.limit), skip \($0.skip)" }
    #expect(
      requests == ["limit 30, skip 0"],
      guide.task(1, "expected one page request with limit 30, skip 0, got \(requests)"))
  }

  @Test func passesOneProductThrough() async {
    let remote = SpyProductRemoteDataSource(
      page: ProductPage(products: [.sample(id: 9, title: "Kettle")], total: 1, skip: 0, limit: 1))
    let repository = DefaultProductRepository(remote: remote)
    let product = await Result { try await repository.product(id: 9) }
    #expect((try? product.get())?.title == "Kettle", guide.task(1, "product(id: 9) should be Kettle, got \(product)"))
    #expect(await remote.productRequests == [9], guide.task(1, "expected one request for product 9"))
  }

  @Test func letsTheDataLayersErrorsThrough() async {
    let remote = SpyProductRemoteDataSource(page: ProductPage(products: [], total: 0, skip: 0, limit: 0))
    let repository = DefaultProductRepository(remote: remote)
    let missing = await Result { try await repository.product(id: 404) }
    #expect(
      missing.failure as? RemoteDataSourceError == .http(status: 404, message: "Product with id '404' not found"),
      guide.task(1, "a 404 from the source should reach the caller unchanged, got \(missing)")
    )
  }
}
