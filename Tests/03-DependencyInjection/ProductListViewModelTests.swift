import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

/// The view model against doubles: no HTTP, no JSON, no URLSession.
@MainActor
struct ProductListViewModelTests {
  @Test func startsIdleAndDoesNoWorkUntilAsked() {
    let viewModel = ProductListViewModel(repository: UnimplementedProductRepository())
    #expect(viewModel.state == .idle, guide.task(2, "a new view model should be .idle, got \(viewModel.state)"))
  }

  @Test func showsTheProducts() async {
    let viewModel = ProductListViewModel(
      repository: StubProductRepository(answer: .success([.sample(id: 1), .sample(id: 2)])))
    await viewModel.load()
    #expect(
      viewModel.state == .loaded([.sample(id: 1), .sample(id: 2)]),
      guide.task(2, "a repository answering products 1 and 2 should end in .loaded([1, 2]), got \(viewModel.state)")
    )
  }

  @Test func showsTheEmptyStateForNoProducts() async {
    let viewModel = ProductListViewModel(repository: StubProductRepository(answer: .success([])))
    await viewModel.load()
    #expect(
      viewModel.state == .empty,
      guide.task(2, "no products is .empty, not .loaded([]) and not .failed; got \(viewModel.state)"))
  }

  @Test(arguments: [
    (RemoteDataSourceError.offline, "You are offline. Check your connection and try again."),
    (.http(status: 500, message: "Database unavailable"), "The catalog answered 500: Database unavailable"),
    (.decoding("bad"), "The catalog sent data this app cannot read."),
  ])
  func showsAMessageForAFailure(error: RemoteDataSourceError, message: String) async {
    let viewModel = ProductListViewModel(repository: StubProductRepository(answer: .failure(error)))
    await viewModel.load()
    #expect(
      viewModel.state == .failed(message),
      guide.task(
        2,
        "when the repository throws \(error), expected .failed(\"\(message)\") from message(for:), got \(viewModel.state)"
      )
    )
  }

  @Test func isLoadingWhileTheRepositoryWorksAndNotAfter() async throws {
    let spy = SpyProductRepository(answers: [.success([.sample(id: 1)])], holdsCalls: true)
    let viewModel = ProductListViewModel(repository: spy)
    let load = Task { await viewModel.load() }
    let called = await waitFor({ await spy.nextCall() }, unlessFinished: load)
    try #require(called, guide.task(2, "load() never asked the repository for products; state is \(viewModel.state)"))
    #expect(
      viewModel.state == .loading,
      guide.task(2, "while the repository works the state should be .loading, got \(viewModel.state)"))
    await spy.release()
    await load.value
    #expect(
      viewModel.state == .loaded([.sample(id: 1)]),
      guide.task(2, "after the load the state should be .loaded, got \(viewModel.state)"))
  }

  @Test func aSecondLoadWhileOneRunsFetchesNothing() async throws {
    let spy = SpyProductRepository(answers: [.success([.sample(id: 1)])], holdsCalls: true)
    let viewModel = ProductListViewModel(repository: spy)
    let first = Task { await viewModel.load() }
    let called = await waitFor({ await spy.nextCall() }, unlessFinished: first)
    try #require(called, guide.task(2, "load() never asked the repository for products; state is \(viewModel.state)"))
    // The second load is queued on the main actor before the release below, and
    // the main actor runs its jobs in order, so it starts while the first is
    // still held. Ignoring it and joining the first both end with one fetch;
    // neither can hang this test.
    let second = Task { await viewModel.load() }
    await spy.release()
    await first.value
    await second.value
    let calls = await spy.productsCallCount
    #expect(
      calls == 1,
      guide.task(3, "a load() while one is running must not fetch again: the spy saw \(calls) calls")
    )
    #expect(
      viewModel.state == .loaded([.sample(id: 1)]),
      guide.task(3, "the first load should still finish as .loaded, got \(viewModel.state)")
    )
    let before = await spy.productsCallCount
    await viewModel.load()
    let after = await spy.productsCallCount
    #expect(
      after == before + 1,
      guide.task(3, "once the first load ended, a new load() must fetch again: calls went from \(before) to \(after)"))
  }

  @Test func retryRecoversFromAFailure() async {
    let spy = SpyProductRepository(answers: [.failure(.offline), .success([.sample(id: 3)])])
    let viewModel = ProductListViewModel(repository: spy)
    await viewModel.load()
    #expect(
      viewModel.state == .failed("You are offline. Check your connection and try again."),
      guide.task(2, "the first load fails offline, got \(viewModel.state)")
    )
    await viewModel.retry()
    #expect(
      viewModel.state == .loaded([.sample(id: 3)]),
      guide.task(4, "retry() after a failure should load again and show product 3, got \(viewModel.state)"))
    #expect(await spy.productsCallCount == 2, guide.task(4, "retry() should fetch once more: expected 2 calls in all"))
  }
}
