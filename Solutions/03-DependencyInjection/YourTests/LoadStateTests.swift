import Testing

@testable import Solution03

@MainActor
struct LoadStateTests {
  @Test func aLoadThatSucceedsShowsTheProducts() async {
    let viewModel = ProductListViewModel(repository: StubRepository(answer: .success([product(1), product(2)])))
    await viewModel.load()
    #expect(viewModel.state == .loaded([product(1), product(2)]))
  }

  @Test func anEmptyCatalogIsTheEmptyState() async {
    let viewModel = ProductListViewModel(repository: StubRepository(answer: .success([])))
    await viewModel.load()
    #expect(viewModel.state == .empty)
  }

  @Test func aLoadThatFailsShowsTheFailureNotTheSpinner() async {
    let viewModel = ProductListViewModel(repository: StubRepository(answer: .failure(RemoteDataSourceError.offline)))
    await viewModel.load()
    guard case .failed(let message) = viewModel.state else {
      Issue.record("expected .failed, got \(viewModel.state)")
      return
    }
    #expect(!message.isEmpty)
  }
}
