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
@Suite(.timeLimit(.minutes(1)))
struct ProductListViewModelTests {
  // MARK: Task 3

  @Test func startsIdleAndDoesNoWorkUntilAsked() {
    let viewModel = ProductListViewModel(
      repository: UnimplementedProductRepository(
        task: 3, rule: "a new view model must not fetch; nothing in init may call the repository"))
    #expect(
      viewModel.state == .idle, guide.task(3, "a new view model should be .idle, got \(describe(viewModel.state))"))
  }

  @Test func showsTheProducts() async {
    let viewModel = ProductListViewModel(
      repository: StubProductRepository(answer: .success([.sample(id: 1), .sample(id: 2)])))
    await viewModel.load()
    let wanted = ProductListViewModel.State.loaded([.sample(id: 1), .sample(id: 2)])
    #expect(
      viewModel.state == wanted,
      guide.task(3, "a repository answering products 1 and 2: \(expected(wanted, got: viewModel.state))"))
  }

  @Test func showsTheEmptyStateForNoProducts() async {
    let viewModel = ProductListViewModel(repository: StubProductRepository(answer: .success([])))
    await viewModel.load()
    #expect(
      viewModel.state == .empty,
      guide.task(3, "no products is .empty, not .loaded([]) and not .failed; got \(describe(viewModel.state))"))
  }

  @Test func showsAMessageForAFailure() async {
    let failures: [(error: RemoteDataSourceError, message: String)] = [
      (.offline, "You are offline. Check your connection and try again."),
      (.http(status: 500, message: "Database unavailable"), "The catalog answered 500: Database unavailable"),
      (.decoding("bad"), "The catalog sent data this app cannot read."),
    ]
    var mismatches: [(subject: String, result: String)] = []
    for failure in failures {
      let viewModel = ProductListViewModel(repository: StubProductRepository(answer: .failure(failure.error)))
      await viewModel.load()
      if viewModel.state != .failed(failure.message) {
        mismatches.append(("\(failure.error)", describe(viewModel.state)))
      }
    }
    let wrong = grouped(mismatches)
    #expect(
      wrong.isEmpty,
      guide.task(
        3,
        "a repository that throws should end in .failed(message(for: error)), such as .failed(\"\(failures[0].message)\") for .offline; \(wrong.joined(separator: "; "))"
      )
    )
  }

  @Test func isLoadingWhileTheRepositoryWorksAndNotAfter() async throws {
    let gate = HoldingProductRepository(wrapping: StubProductRepository(answer: .success([.sample(id: 1)])))
    let viewModel = ProductListViewModel(repository: gate)
    let load = Task { await viewModel.load() }
    let called = await waitFor({ await gate.nextCall() }, unlessFinished: load)
    try #require(
      called, guide.task(3, "load() never asked the repository for products; state is \(describe(viewModel.state))"))
    #expect(
      viewModel.state == .loading,
      guide.task(3, "while the repository works the state should be .loading, got \(describe(viewModel.state))"))
    await gate.release()
    await load.value
    #expect(
      viewModel.state == .loaded([.sample(id: 1)]),
      guide.task(3, "after the load: \(expected(.loaded([.sample(id: 1)]), got: viewModel.state))"))
  }

  // MARK: Task 4

  /// A cancelled load puts back what the screen showed before it: nothing, a
  /// list, or an earlier failure's message.
  @Test(.afterTask2, .afterTask3) func aCancelledLoadPutsBackWhatWasThere() async throws {
    let scripts: [(before: ProductListViewModel.State, answers: [Result<[Product], any Error>])] = [
      (.idle, [.failure(CancellationError())]),
      (.loaded([.sample(id: 1)]), [.success([.sample(id: 1)]), .failure(CancellationError())]),
      (
        .failed(ProductListViewModel.message(for: RemoteDataSourceError.offline)),
        [.failure(RemoteDataSourceError.offline), .failure(CancellationError())]
      ),
    ]
    var mismatches: [(subject: String, result: String)] = []
    for script in scripts {
      let viewModel = ProductListViewModel(repository: SpyProductRepository(answers: script.answers))
      if script.answers.count > 1 { await viewModel.load() }
      try #require(
        viewModel.state == script.before,
        guide.task(3, "before the cancelled load: \(expected(script.before, got: viewModel.state))"))
      await viewModel.load()
      if viewModel.state != script.before {
        mismatches.append(("from \(describe(script.before))", describe(viewModel.state)))
      }
    }
    let wrong = grouped(mismatches, verb: "went to")
    #expect(
      wrong.isEmpty,
      guide.task(
        4,
        "a load whose repository throws CancellationError is not a failure (SwiftUI cancels .task whenever the view goes away): it should put back the state it found and show no message; \(wrong.joined(separator: "; "))"
      )
    )
  }

  // MARK: Task 5

  @Test(.afterTask2, .afterTask3) func aSecondLoadWhileOneRunsFetchesNothing() async throws {
    let spy = SpyProductRepository(answers: [.success([.sample(id: 1)])])
    let gate = HoldingProductRepository(wrapping: spy)
    let viewModel = ProductListViewModel(repository: gate)
    let first = Task { await viewModel.load() }
    let called = await waitFor({ await gate.nextCall() }, unlessFinished: first)
    try #require(
      called, guide.task(3, "load() never asked the repository for products; state is \(describe(viewModel.state))"))
    // The first load is held at the gate, and only the main actor can finish it.
    // This test runs on the main actor without a break from here to the first
    // `await` inside the second load, so the second load starts while the first
    // is still running, whatever order the main actor runs its jobs in. The gate
    // opens from another task, so a second load that joins the first is not left
    // waiting. Ignoring and joining both end with one fetch.
    let opening = Task.detached { await gate.release() }
    await viewModel.load()
    await opening.value
    await first.value
    let calls = await spy.productsCallCount
    #expect(
      calls == 1,
      guide.task(
        5,
        "a load() while one is running must not fetch again (whatever marks a load as running must be set before the first await): expected 1 fetch, the spy counted \(calls)"
      ))
    #expect(
      viewModel.state == .loaded([.sample(id: 1)]),
      guide.task(5, "once both loads returned: \(expected(.loaded([.sample(id: 1)]), got: viewModel.state))"))
    await viewModel.load()
    let after = await spy.productsCallCount
    #expect(
      after == calls + 1,
      guide.task(
        5, "once the first load ended, a new load() must fetch again: the spy's count went from \(calls) to \(after)"))
  }

  /// A load that ended in a failure or a cancellation is over, as much as one
  /// that succeeded: the next `load()` fetches again.
  @Test(.afterTask2, .afterTask3) func aLoadThatFailedOrWasCancelledLetsTheNextOneFetch() async {
    let endings: [(name: String, error: any Error)] = [
      ("failed offline", RemoteDataSourceError.offline), ("was cancelled", CancellationError()),
    ]
    var stuck: [String] = []
    for ending in endings {
      let spy = SpyProductRepository(answers: [.failure(ending.error), .success([.sample(id: 1)])])
      let viewModel = ProductListViewModel(repository: spy)
      await viewModel.load()
      await viewModel.load()
      let calls = await spy.productsCallCount
      if calls != 2 || viewModel.state != .loaded([.sample(id: 1)]) {
        stuck.append(
          "after a load that \(ending.name), the second load() gave \(describe(viewModel.state)) after \(calls) fetch(es) in all"
        )
      }
    }
    #expect(
      stuck.isEmpty,
      guide.task(
        5,
        "a load that ended, whatever it ended in, must let the next load() fetch: expected 2 fetches and .loaded(products [1]); \(stuck.joined(separator: "; ")) (a marker of a running load that is cleared only on success stays set after a failure or a cancellation)"
      ))
  }

  // MARK: Task 6

  @Test(.afterTask2, .afterTask3) func retryRecoversFromAFailure() async throws {
    let spy = SpyProductRepository(answers: [.failure(RemoteDataSourceError.offline), .success([.sample(id: 3)])])
    let viewModel = ProductListViewModel(repository: spy)
    await viewModel.load()
    let failed = ProductListViewModel.State.failed("You are offline. Check your connection and try again.")
    try #require(
      viewModel.state == failed,
      guide.task(3, "the first load fails offline: \(expected(failed, got: viewModel.state))"))
    await viewModel.retry()
    let calls = await spy.productsCallCount
    let afterRetry = viewModel.state
    if calls == 1 {
      // retry() fetched nothing. When load() fetches nothing either, the failed
      // load left load() stuck (Task 5), and no retry() can get past it.
      await viewModel.load()
      let loads = await spy.productsCallCount
      guard loads > 1 else {
        Issue.record(
          guide.task(
            5,
            "after a failed load, neither retry() nor load() fetched again (1 fetch in all, state \(describe(afterRetry))): the load that failed is over, so the next load() must fetch; aLoadThatFailedOrWasCancelledLetsTheNextOneFetch says more"
          ))
        return
      }
    }
    #expect(
      afterRetry == .loaded([.sample(id: 3)]) && calls == 2,
      guide.task(
        6,
        "retry() after a failure should fetch once more and show product 3: expected \(describe(.loaded([.sample(id: 3)]))) after 2 fetches, got \(describe(afterRetry)) after \(calls)"
      )
    )
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a test, with a note naming Task 3, until `load()` shows a
  /// repository's products: the test checks something that builds on it.
  static var afterTask3: Self {
    .enabled(
      guide.task(
        3, "skipped until load() ends in .loaded with the repository's products; this test builds on that")
    ) { await loadIsDone.value }
  }
}

/// Task 3's check, run once for every test that needs it, and bounded: it runs
/// before any test starts, where a `load()` that never returns would hang the run.
private let loadIsDone = Task { await boundedCheck { await loadShowsProducts() } ?? false }

/// Whether `load()` shows what a stub repository answers.
@MainActor
private func loadShowsProducts() async -> Bool {
  let viewModel = ProductListViewModel(repository: StubProductRepository(answer: .success([.sample(id: 1)])))
  await viewModel.load()
  return viewModel.state == .loaded([.sample(id: 1)])
}
