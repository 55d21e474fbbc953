import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Task 5: the view model turns each domain error into a sentence and a retry offer.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ProductListViewModelTests {
  nonisolated static let every: [CatalogError] = [
    .offline, .timedOut, .connectionLost, .insecureConnection, .notFound, .unauthorized,
    .rateLimited(retryAfter: .seconds(120)), .rateLimited(retryAfter: nil),
    .rejected(status: 409), .server(status: 503), .server(status: 501),
    .invalidData("products[3].price: expected Decimal"),
    .storage(.busy), .storage(.full), .storage(.damaged), .storage(.refused), .storage(.unavailable),
    .nothingCached,
  ]

  /// Words that belong in logs, never on a screen.
  nonisolated static let internals = [
    "URLError", "DecodingError", "SQLite", "invalidData", "products[3]", "Optional", "CatalogError",
  ]

  @Test(arguments: every)
  func eachErrorHasASentenceForAPersonAndARetryOffer(error: CatalogError) {
    let message = ProductListViewModel.message(for: error)
    // A stub's text is not a badly written message: it says the task is not done yet.
    guard !message.text.hasPrefix("Not done yet: ") else {
      Issue.record(
        guide.task(
          5,
          "\(StageGuide.unfinishedPrefix(5))message(for: \(error)) still returns its stub's text, \"\(message.text)\": write the sentence a person reads for it"
        ))
      return
    }
    let leaked = Self.internals.filter { message.text.contains($0) }
    var problems: [String] = []
    if message.text.count <= 10 { problems.append("it is \(message.text.count) characters long") }
    if !message.text.hasSuffix(".") { problems.append("it does not end with a full stop") }
    if !leaked.isEmpty {
      problems.append("it shows \(leaked.map { "\"\($0)\"" }.joined(separator: ", ")), meant for logs")
    }
    #expect(
      problems.isEmpty,
      guide.task(
        5,
        "message(for: \(error)) should be a sentence a person reads: more than 10 characters, ending with a full stop, no error names, coding paths or \"Optional\"; got \"\(message.text)\": \(problems.joined(separator: "; "))",
        blaming: message.text))
    guard guide.requireTask1(for: 5) else { return }
    #expect(
      message.offersRetry == error.isRetryable,
      guide.task(
        5,
        "message(for: \(error)) should offer Try Again exactly when retrying can help (\(error.isRetryable)), got \(message.offersRetry)",
        blaming: message.text))
  }

  @Test func differentTroublesReadDifferently() {
    let kinds: [CatalogError] = [
      .offline, .timedOut, .connectionLost, .notFound, .unauthorized, .rateLimited(retryAfter: nil),
      .server(status: 503), .invalidData("x"), .storage(.full), .nothingCached,
    ]
    let texts = kinds.map { ProductListViewModel.message(for: $0).text }
    #expect(
      Set(texts).count == kinds.count && !texts.contains { $0.contains("Not done yet") },
      guide.task(
        5,
        "offline, timed out, connection lost, not found, unauthorized, rate limited, server, invalid data, disk full and nothing cached each need their own sentence, got \(texts)",
        blaming: texts))
  }

  @Test func offlineSaysSo() {
    let text = ProductListViewModel.message(for: .offline).text
    #expect(
      text.lowercased().contains("offline") && !text.contains("Not done yet"),
      guide.task(5, "the offline sentence should say \"offline\", got \"\(text)\"", blaming: text))
  }

  nonisolated static let waits: [(Duration?, String)] = [
    (.seconds(30), "30 seconds"),
    (.seconds(1), "1 second"),
    (.seconds(60), "1 minute"),
    (.seconds(120), "2 minutes"),
    (.seconds(121), "3 minutes"),
    (nil, "a moment"),
  ]

  @Test(arguments: waits)
  func rateLimitedSaysWhenToTryAgain(retryAfter: Duration?, when: String) {
    let text = ProductListViewModel.message(for: .rateLimited(retryAfter: retryAfter)).text
    #expect(
      text.contains("in \(when)"),
      guide.task(
        5, "rate limited with Retry-After \(String(describing: retryAfter)) should say \"in \(when)\", got \"\(text)\"",
        blaming: text))
  }

  @Test func offlineWithCachedDataShowsTheDataAndSaysItIsOffline() async {
    let cached = RepositoryAnswer(
      value: firstPage, origin: .disk, fetchedAt: testDate, isStale: true, networkError: .offline)
    let viewModel = ProductListViewModel(repository: SpyProductRepository(answers: [.success(cached)]))
    await viewModel.refresh()
    let notice = viewModel.notice ?? ""
    #expect(
      Bool(same(viewModel.state, .loaded(firstPage))) && notice.lowercased().contains("offline"),
      guide.task(
        5,
        "offline with a cached list, the screen shows the 30 products and a notice that says offline; got \(brief(viewModel.state)), notice \(String(describing: viewModel.notice))",
        blaming: notice))
  }

  /// The failures that let saved products stand in, and whether the catalog was reached.
  nonisolated static let fallbacks: [(CatalogError, Bool)] = [
    (.offline, false), (.timedOut, false), (.connectionLost, false), (.insecureConnection, false),
    (.rateLimited(retryAfter: nil), true), (.server(status: 503), true), (.invalidData("products[0].price"), true),
  ]

  @Test func eachNoticeNamesItsCause() {
    let notices = Self.fallbacks.map { ProductListViewModel.notice(for: $0.0) }
    var problems: [String] = []
    if Set(notices).count != notices.count { problems.append("some of them read the same") }
    for ((error, reached), notice) in zip(Self.fallbacks, notices) {
      let text = notice.lowercased()
      if reached, text.contains("offline") || text.contains("couldn't be reached") || text.contains("can't be reached")
      {
        problems.append("\(error): the catalog answered, yet \"\(notice)\" says it was not reached")
      }
      for word in Self.internals where notice.contains(word) {
        problems.append("\(error): \"\(notice)\" shows \(word)")
      }
    }
    #expect(
      problems.isEmpty && !notices.contains { $0.contains("Not done yet") },
      guide.task(
        5,
        "notice(for:) should name the real cause above saved products, one line per cause (offline, too slow, connection lost, insecure, rate limited, the catalog's trouble, unreadable data); got \(notices): \(problems.joined(separator: "; "))",
        blaming: notices))
  }

  @Test func aFreshAnswerClearsTheNotice() async {
    let cached = RepositoryAnswer(
      value: firstPage, origin: .disk, fetchedAt: testDate, isStale: true, networkError: .offline)
    let fresh = RepositoryAnswer(value: firstPage, origin: .network, fetchedAt: testDate, isStale: false)
    let viewModel = ProductListViewModel(
      repository: SpyProductRepository(answers: [.success(cached), .success(fresh)]))
    await viewModel.refresh()
    await viewModel.refresh()
    #expect(
      viewModel.notice == nil,
      guide.task(5, "once the network answers, the offline notice goes, got \(String(describing: viewModel.notice))"))
  }

  @Test func aFailureShowsTheSentenceAndTheRetryOffer() async {
    guard guide.requireTask1(for: 5) else { return }
    let viewModel = ProductListViewModel(
      repository: SpyProductRepository(answers: [.failure(CatalogError.server(status: 503))]))
    await viewModel.load()
    let expected = ProductListViewModel.message(for: .server(status: 503))
    #expect(
      Bool(same(viewModel.state, .failed(expected))) && expected.offersRetry
        && !expected.text.contains("Not done yet"),
      guide.task(
        5,
        "a 503 with nothing cached shows .failed with message(for: .server(status: 503)), which offers Try Again; got \(brief(viewModel.state))",
        blaming: expected))
  }

  @Test func aCancelledLoadShowsNoMessage() async {
    let loaded = RepositoryAnswer(value: firstPage, origin: .network, fetchedAt: testDate, isStale: false)
    let repository = HoldingProductRepository(answer: loaded)
    let viewModel = ProductListViewModel(repository: repository)
    await viewModel.load()
    let refresh = Task { await viewModel.refresh() }
    let inFlight = await repository.held.waitForSleepers(count: 1, whileRunning: refresh)
    refresh.cancel()
    await refresh.value
    #expect(
      inFlight && Bool(same(viewModel.state, .loaded(firstPage))),
      guide.task(
        5,
        "a cancelled refresh is not a failure: the screen keeps its 30 products and shows no message, got \(brief(viewModel.state))"
      ))
  }
}
