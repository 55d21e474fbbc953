import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Task 1 at the repository: saved products stand in for a failed network only
/// when the failure allows it (`allowsCachedFallback`), never for a refusal.
@Suite(.timeLimit(.minutes(1)))
struct FallbackTests {
  /// A repository whose cache holds the first page, fetched 10 minutes before
  /// `testDate` (past the list's 5-minute soft age, within its day), over a
  /// network that fails with `error`.
  static func repository(failingWith error: CatalogError) async -> CachingProductRepository {
    let store = InMemoryProductCacheStore()
    await store.saveList(firstPage, fetchedAt: testDate.addingTimeInterval(-600))
    return CachingProductRepository(remote: SpyRemoteDataSource([.failure(error)]), store: store, now: testNow)
  }

  static let policies: [CachePolicy] = [.networkFirst, .cacheFirst]

  @Test(arguments: CatalogErrorTests.standsIn.map { ($0.0, $0.1) }, policies)
  func aCachedListStandsInOnlyWhenTheCatalogDidNotRefuse(
    failure: (error: CatalogError, standsIn: Bool), policy: CachePolicy
  )
    async
  {
    let repository = await Self.repository(failingWith: failure.error)
    let outcome = await Result { try await repository.products(policy: policy) }
    let got =
      switch outcome {
      case .success(let answer):
        "the cached list (\(answer.value.count) products, stale: \(answer.isStale), networkError: \(answer.networkError.map { shown($0) } ?? "nil"))"
      case .failure(let error): "threw \(shown(error))"
      }
    let fellBack = (try? outcome.get()).map { $0.isStale && $0.networkError == failure.error } ?? false
    let threw = outcome.failure as? CatalogError == failure.error
    #expect(
      failure.standsIn ? fellBack : threw,
      guide.task(
        1,
        failure.standsIn
          ? "\(policy) with a stale cached list and a network failing with \(failure.error): the cached list, marked stale, with networkError \(failure.error); got \(got)"
          : "\(policy) with a stale cached list and a network failing with \(failure.error): a refusal is an answer, so the error, not the cached list (the repository asks allowsCachedFallback); got \(got)"
      ))
  }

  @MainActor
  @Test func aRefusalIsShownNotHiddenBehindSavedProducts() async {
    let repository = await Self.repository(failingWith: .unauthorized)
    let viewModel = ProductListViewModel(repository: repository)
    await viewModel.refresh()
    let expected = ProductListViewModel.message(for: .unauthorized)
    #expect(
      Bool(same(viewModel.state, .failed(expected))) && viewModel.notice == nil,
      guide.task(
        1,
        "pull to refresh answered 401 while a list was saved: the screen says to sign in again (message(for: .unauthorized)), with no saved products and no notice; got \(brief(viewModel.state)), notice \(viewModel.notice.map { "\"\($0)\"" } ?? "nil")"
      ))
  }
}
