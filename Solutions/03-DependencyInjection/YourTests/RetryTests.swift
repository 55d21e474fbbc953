import Testing

@testable import Solution03

@MainActor
struct RetryTests {
  @Test func aRetryAfterAFailureShowsTheNewAnswer() async {
    let spy = SpyProductRepository(answers: [.failure(RemoteDataSourceError.offline), .success([product(7)])])
    let viewModel = ProductListViewModel(repository: spy)
    await viewModel.load()
    await viewModel.retry()
    #expect(viewModel.state == .loaded([product(7)]))
  }

  @Test func aRetryAsksTheRepositoryOnce() async {
    let spy = SpyProductRepository(answers: [.failure(RemoteDataSourceError.offline), .success([product(7)])])
    let viewModel = ProductListViewModel(repository: spy)
    await viewModel.load()
    await viewModel.retry()
    #expect(await spy.productsCallCount == 2)
  }
}
