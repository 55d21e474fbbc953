import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Task 8: the screen says how old its products are, and pull to refresh asks the network.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ProductListViewModelTests {
  static let fetchedAt = Date(timeIntervalSince1970: 1_767_225_600)

  @Test func loadShowsTheCacheAndWhenItWasFetched() async {
    let cached = RepositoryAnswer(value: firstPage, origin: .disk, fetchedAt: Self.fetchedAt, isStale: true)
    let repository = SpyProductRepository(answers: [.success(cached)])
    let viewModel = ProductListViewModel(repository: repository)
    await viewModel.load()
    let policies = await repository.policies
    #expect(
      Bool(same(viewModel.state, .loaded(firstPage)))
        && viewModel.lastUpdate
          == ProductListViewModel.LastUpdate(fetchedAt: Self.fetchedAt, origin: .disk, isStale: true),
      guide.task(
        8,
        "load() shows the answer's products and its fetch time, origin and staleness; got \(viewModel.state), \(String(describing: viewModel.lastUpdate))"
      ))
    #expect(
      policies == [.staleWhileRevalidate],
      guide.task(8, "load() asks with .staleWhileRevalidate, to show the cache at once; asked \(policies)"))
  }

  @Test func pullToRefreshAsksTheNetwork() async {
    let cached = RepositoryAnswer(value: firstPage, origin: .disk, fetchedAt: Self.fetchedAt, isStale: true)
    let fresh = RepositoryAnswer(
      value: Array(firstPage.prefix(5)), origin: .network, fetchedAt: Self.fetchedAt + 600, isStale: false)
    let repository = SpyProductRepository(answers: [.success(cached), .success(fresh)])
    let viewModel = ProductListViewModel(repository: repository)
    await viewModel.load()
    await viewModel.refresh()
    let policies = await repository.policies
    #expect(
      policies == [.staleWhileRevalidate, .networkFirst],
      guide.task(8, "refresh() asks with .networkFirst, which always asks the network; asked \(policies)"))
    #expect(
      Bool(same(viewModel.state, .loaded(Array(firstPage.prefix(5))))) && viewModel.lastUpdate?.origin == .network
        && viewModel.lastUpdate?.isStale == false,
      guide.task(
        8,
        "after refresh() the screen shows the network's 5 products, not stale; got \(viewModel.state), \(String(describing: viewModel.lastUpdate))"
      ))
  }

  @Test func aCancelledRefreshKeepsTheProductsAndWhenTheyWereFetched() async {
    let cached = RepositoryAnswer(value: firstPage, origin: .disk, fetchedAt: Self.fetchedAt, isStale: true)
    let repository = HoldingProductRepository(answer: cached, answeredCalls: 1)
    let viewModel = ProductListViewModel(repository: repository)
    await viewModel.load()
    let refresh = Task { await viewModel.refresh() }
    let asked = await waitFor({ await repository.held.wait(atLeast: 1) }, unlessFinished: refresh)
    refresh.cancel()
    await refresh.value
    let shown = ProductListViewModel.LastUpdate(fetchedAt: Self.fetchedAt, origin: .disk, isStale: true)
    #expect(
      asked && Bool(same(viewModel.state, .loaded(firstPage))) && viewModel.lastUpdate == shown,
      guide.task(
        8,
        "a refresh cancelled while the repository works (the view went away) is not a failure: the 30 products and their fetch time stay, with no message; \(asked ? "" : "refresh() never asked the repository; ")got \(viewModel.state), \(String(describing: viewModel.lastUpdate))"
      ))
  }

  @Test func aCancelledFirstLoadPutsBackIdle() async {
    let cached = RepositoryAnswer(value: firstPage, origin: .disk, fetchedAt: Self.fetchedAt, isStale: false)
    let repository = HoldingProductRepository(answer: cached, answeredCalls: 0)
    let viewModel = ProductListViewModel(repository: repository)
    let load = Task { await viewModel.load() }
    let asked = await waitFor({ await repository.held.wait(atLeast: 1) }, unlessFinished: load)
    load.cancel()
    await load.value
    #expect(
      asked && viewModel.state == .idle && viewModel.lastUpdate == nil,
      guide.task(
        8,
        "a first load cancelled while the repository works puts back .idle, shows no message and no update time; got \(viewModel.state), \(String(describing: viewModel.lastUpdate))"
      ))
  }

  nonisolated static let ages: [(TimeInterval, String)] = [
    (-30, "Updated just now"),
    (0, "Updated just now"),
    (59, "Updated just now"),
    (59.6, "Updated just now"),  // rounded down, not to the nearest second
    (60, "Updated 1 minute ago"),
    (119, "Updated 1 minute ago"),
    (119.5, "Updated 1 minute ago"),
    (300, "Updated 5 minutes ago"),
    (3_599, "Updated 59 minutes ago"),
    (3_600, "Updated 1 hour ago"),
    (86_399, "Updated 23 hours ago"),
    (86_400, "Updated 1 day ago"),
    (259_200, "Updated 3 days ago"),
  ]

  @Test(arguments: ages)
  func saysHowLongAgo(age: TimeInterval, text: String) {
    let said = ProductListViewModel.updatedText(fetchedAt: Self.fetchedAt, now: Self.fetchedAt + age)
    #expect(said == text, guide.task(8, "\(age) s after the fetch the screen says \"\(text)\", got \"\(said)\""))
  }

  @Test func saysNothingBeforeTheFirstAnswer() async {
    let cached = RepositoryAnswer(value: firstPage, origin: .memory, fetchedAt: Self.fetchedAt, isStale: false)
    let viewModel = ProductListViewModel(repository: SpyProductRepository(answers: [.success(cached)]))
    let before = viewModel.updatedText(now: Self.fetchedAt + 300)
    await viewModel.load()
    let after = viewModel.updatedText(now: Self.fetchedAt + 300)
    #expect(
      before == nil && after == "Updated 5 minutes ago",
      guide.task(
        8,
        "updatedText(now:) is nil before any answer and \"Updated 5 minutes ago\" after; got \(String(describing: before)), \(String(describing: after))"
      ))
  }
}
