import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// A remote data source with canned answers: no URL, no JSON, no HTTP.
struct StubProductRemoteDataSource: ProductRemoteDataSource {
  var page: Result<ProductPage, RemoteDataSourceError>

  func products(limit: Int, skip: Int) async throws -> ProductPage { try page.get() }
  func product(id: Int) async throws -> Product {
    guard let product = try page.get().products.first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: nil)
    }
    return product
  }
}

/// Stage 02's point: the view model's tests need no HTTP at all.
@MainActor
struct ProductListViewModelTests {
  static let threeProducts = ProductPage(
    products: [.sample(id: 1), .sample(id: 2), .sample(id: 3)], total: 3, skip: 0, limit: 3)

  @Test func showsWhatTheSourceReturns() async {
    let viewModel = ProductListViewModel(remote: StubProductRemoteDataSource(page: .success(Self.threeProducts)))
    await viewModel.load()
    #expect(
      viewModel.products.map(\.id) == [1, 2, 3] && viewModel.errorMessage == nil,
      guide.task(
        6,
        "a source answering products 1, 2, 3 should show them, got \(viewModel.products.map(\.id)) and errorMessage \(viewModel.errorMessage ?? "nil")"
      )
    )
    #expect(!viewModel.isLoading, guide.task(6, "isLoading should be false after the load"))
  }

  @Test func showsAnEmptyPageWithoutAnError() async {
    let empty = ProductPage(products: [], total: 0, skip: 0, limit: 0)
    let viewModel = ProductListViewModel(remote: StubProductRemoteDataSource(page: .success(empty)))
    await viewModel.load()
    #expect(
      viewModel.products.isEmpty && viewModel.errorMessage == nil,
      guide.task(
        6,
        "an empty page is not a failure: expected no products and no errorMessage, got \(viewModel.errorMessage ?? "nil")"
      )
    )
  }

  @Test(arguments: [
    (RemoteDataSourceError.http(status: 500, message: "Database unavailable"), "500"),
    (.offline, "offline"),
    (.decoding("bad"), "cannot read"),
  ])
  func tellsTheUserWhatFailed(error: RemoteDataSourceError, expected: String) async {
    let viewModel = ProductListViewModel(remote: StubProductRemoteDataSource(page: .failure(error)))
    await viewModel.load()
    let shown = viewModel.errorMessage ?? "nil"
    #expect(
      shown.localizedCaseInsensitiveContains(expected),
      guide.task(6, "when the source throws \(error), errorMessage should mention \"\(expected)\", got \(shown)")
    )
    #expect(!viewModel.isLoading, guide.task(6, "isLoading should be false after a failure"))
  }
}
