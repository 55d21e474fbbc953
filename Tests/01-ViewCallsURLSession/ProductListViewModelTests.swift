import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution01
#else
  @testable import Lesson01
#endif

private let guide = StageGuide(
  doc: "Docs/01-ViewCallsURLSession.md",
  tasks: [
    1: "Use the injected session",
    2: "Check the HTTP status",
    3: "Tell a failure from an empty list",
    4: "Always turn the spinner off",
    5: "Recover on retry",
  ]
)

/// Stage 01 tests the view model the only way its design allows: through HTTP,
/// against a fake Catalog API. Notice how much setup each test needs; stage 02
/// removes it.
///
/// Until Task 1 is done, the tests of later tasks are skipped: they need the
/// fake API to answer, and it only answers the session passed to `init`.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ProductListViewModelTests {
  let api = FakeCatalogAPI()

  func makeViewModel() -> ProductListViewModel {
    ProductListViewModel(baseURL: api.baseURL, session: api.session)
  }

  // MARK: Task 1

  @Test func sendsItsRequestThroughTheInjectedSession() async {
    let viewModel = makeViewModel()
    await viewModel.load()
    let shared = api.sharedSessionRequests.count
    let injected = api.requests.map { "\($0.method) \($0.path)" }
    #expect(
      shared == 0 && injected == ["GET /products"],
      guide.task(
        1,
        shared > 0
          ? "load() sent \(shared) request(s) through URLSession.shared; send them through the session passed to init"
          : injected.isEmpty
            // On Apple platforms a session the code made itself goes past the fake unseen.
            ? "expected one GET /products through the injected session; the fake saw none, through it or URLSession.shared: if load() makes a URLSession of its own, use the one passed to init"
            : "expected one GET /products through the injected session, got \(injected)"
      )
    )
  }

  @Test func buildsTheURLFromABaseURLEndingInASlash() async throws {
    let base = try #require(URL(string: api.baseURL.absoluteString + "/"))
    let viewModel = ProductListViewModel(baseURL: base, session: api.session)
    await viewModel.load()
    let requests = api.requests + api.sharedSessionRequests
    let sent = requests.map { "\($0.url.path)?\($0.url.query ?? "")" }
    #expect(
      requests.map(\.path) == ["/products"] && requests.map { $0.query("limit") } == ["30"],
      guide.task(
        1,
        "with the base URL \(base), load() should request /products?limit=30, one slash and all; it requested \(sent). Build the URL with URLComponents, not by gluing strings"
      )
    )
  }

  @Test func showsTheFirstPageOfProducts() async {
    let viewModel = makeViewModel()
    await viewModel.load()
    let first = viewModel.products.first?.title ?? "none"
    #expect(
      viewModel.products.count == 30 && first == "Essence Mascara Lash Princess" && viewModel.errorMessage == nil,
      guide.task(
        1,
        "a 200 with the first 30 products should show them, starting with \"Essence Mascara Lash Princess\", and no errorMessage; got \(viewModel.products.count) products, the first \(first), errorMessage \(quoted(viewModel.errorMessage))"
      )
    )
  }

  // A test that tries several faults prints one message naming the ones that went
  // wrong, rather than one message per fault for the same mistake.

  // MARK: Task 2

  @Test(.afterTask1) func reportsAnHTTPErrorWithTheServersMessage() async {
    let errors = [(status: 404, message: "Products not found"), (status: 500, message: "Database unavailable")]
    var wrong: [String] = []
    for error in errors {
      api.inject(.status(error.status, message: error.message), on: .list, times: 1)
      let viewModel = makeViewModel()
      await viewModel.load()
      let shown = viewModel.errorMessage ?? ""
      if !(shown.contains(String(error.status)) && shown.contains(error.message)) {
        wrong.append("\(error.status) gave errorMessage \(quoted(viewModel.errorMessage))")
      }
    }
    #expect(
      wrong.isEmpty,
      guide.task(
        2,
        "a 404 with {\"message\": \"Products not found\"} and a 500 with {\"message\": \"Database unavailable\"} should each set errorMessage to a sentence holding the status and the message; \(wrong.joined(separator: ", "))"
      )
    )
  }

  @Test(.afterTask1) func refusesAnAnswerThatIsNotHTTP() async {
    api.inject(.nonHTTPResponse, on: .list)
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      viewModel.products.isEmpty && viewModel.errorMessage != nil,
      guide.task(
        2,
        "an answer that is not an HTTPURLResponse has no status to trust, even with a product page in its body: expected no products and an errorMessage; got \(viewModel.products.count) products and errorMessage \(quoted(viewModel.errorMessage))"
      )
    )
  }

  // MARK: Task 3

  @Test(.afterTask1) func showsAnEmptyListWithoutAnError() async throws {
    let empty = FakeCatalogAPI(products: [])
    let viewModel = ProductListViewModel(baseURL: empty.baseURL, session: empty.session)
    await viewModel.load()
    try #require(
      empty.requests.count == 1,
      guide.task(1, "expected 1 request to the empty catalog through the injected session, got \(empty.requests.count)")
    )
    #expect(
      viewModel.products.isEmpty && viewModel.errorMessage == nil,
      guide.task(
        3,
        "an empty catalog is a success: expected no products and errorMessage nil; got \(viewModel.products.count) products and errorMessage \(quoted(viewModel.errorMessage))"
      )
    )
  }

  @Test(.afterTask1) func reportsABodyItCannotRead() async {
    var silent: [String] = []
    for fault in [Fault.malformedBody, .truncatedBody, .nonJSONBody] {
      api.inject(fault, on: .list, times: 1)
      let viewModel = makeViewModel()
      await viewModel.load()
      if viewModel.errorMessage == nil { silent.append("\(fault)") }
    }
    #expect(
      silent.isEmpty,
      guide.task(
        3,
        "a 200 whose body is not a product page is a failure, not an empty list: expected an errorMessage after each of malformedBody, truncatedBody and nonJSONBody (an HTML login page); got nil after \(silent.joined(separator: ", "))"
      )
    )
  }

  @Test(.afterTask1) func saysSoWhenOffline() async {
    api.inject(.offline)
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      (viewModel.errorMessage ?? "").localizedCaseInsensitiveContains("offline"),
      guide.task(
        3,
        "URLError(.notConnectedToInternet) should tell the user they are offline: expected an errorMessage containing \"offline\", got \(quoted(viewModel.errorMessage))"
      )
    )
  }

  /// A timeout reaches the `catch`; a status would be turned away by Task 2's check first.
  @Test(.afterTask1) func keepsTheProductsOnScreenWhenAReloadFails() async throws {
    let viewModel = makeViewModel()
    await viewModel.load()
    try #require(
      viewModel.products.count == 30,
      guide.task(1, "the first load should show 30 products before a reload can fail, got \(viewModel.products.count)"))
    api.inject(.timeout)
    await viewModel.load()
    #expect(
      viewModel.products.count == 30 && viewModel.errorMessage != nil,
      guide.task(
        3,
        "a reload that fails with URLError(.timedOut) should keep the 30 products on screen and set errorMessage; got \(viewModel.products.count) products and errorMessage \(quoted(viewModel.errorMessage))"
      )
    )
  }

  @Test(.afterTask1) func aCancelledReloadLeavesTheScreenAsItWas() async throws {
    let viewModel = makeViewModel()
    await viewModel.load()
    try #require(
      viewModel.products.count == 30,
      guide.task(
        1, "the first load should show 30 products before a reload is cancelled, got \(viewModel.products.count)"))
    api.inject(.latency(.seconds(2)))
    let reload = Task { await viewModel.load() }
    let inFlight = await api.clock.waitForSleepers(count: 1, whileRunning: reload)
    try #require(
      inFlight, guide.task(1, "the reload never reached the fake API's session, so there was nothing to cancel"))
    reload.cancel()
    await reload.value
    let shown = viewModel.products.count
    let what =
      viewModel.errorMessage == nil
      ? "no error was shown, but the cancelled reload left \(shown) products on screen; leave `products` as they were"
      : "got \(shown) products and errorMessage \(quoted(viewModel.errorMessage))"
    #expect(
      shown == 30 && viewModel.errorMessage == nil,
      guide.task(
        3,
        "a cancelled load, URLError(.cancelled), is not a failure: SwiftUI cancels .task when the view goes away. Expected the 30 products still shown and errorMessage nil; \(what)"
      )
    )
  }

  // MARK: Task 4

  @Test(.afterTask1) func showsTheSpinnerOnlyWhileTheRequestIsInFlight() async throws {
    let viewModel = makeViewModel()
    api.inject(.latency(.seconds(2)))
    let load = Task { await viewModel.load() }
    let inFlight = await api.clock.waitForSleepers(count: 1, whileRunning: load)
    try #require(
      inFlight, guide.task(1, "the request never reached the fake API's session, so there was nothing in flight"))
    #expect(viewModel.isLoading, guide.task(4, "while the request is in flight isLoading should be true, got false"))
    api.clock.advance(by: .seconds(2))
    await load.value
    #expect(!viewModel.isLoading, guide.task(4, "after a successful load isLoading should be false, got true"))
  }

  @Test(.afterTask1) func turnsTheSpinnerOffAfterAFailure() async {
    let failures = [
      ("a 500", Fault.status(500, message: "Database unavailable")), ("offline", .offline),
      ("malformedBody", .malformedBody),
    ]
    var spinning: [String] = []
    for (name, fault) in failures {
      api.inject(fault, on: .list, times: 1)
      let viewModel = makeViewModel()
      await viewModel.load()
      if viewModel.isLoading { spinning.append(name) }
    }
    #expect(
      spinning.isEmpty,
      guide.task(
        4,
        "after a failed load isLoading should be false, or the spinner spins forever; it stayed true after \(spinning.joined(separator: ", "))"
      )
    )
  }

  // MARK: Task 5

  @Test(.afterTask1) func aRetryAfterAFailureShowsProductsAndClearsTheError() async throws {
    api.inject(.status(503, message: "Try again soon"), times: 1)
    let viewModel = makeViewModel()
    await viewModel.load()
    try #require(
      viewModel.errorMessage != nil,
      guide.task(2, "the first load got a 503 and should set errorMessage before a retry can clear it, got nil"))
    await viewModel.load()
    #expect(
      viewModel.products.count == 30 && viewModel.errorMessage == nil,
      guide.task(
        5,
        "the retry succeeded: expected 30 products and errorMessage nil; got \(viewModel.products.count) products and errorMessage \(quoted(viewModel.errorMessage))"
      )
    )
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a test, with a note naming Task 1, until `load()` reaches a fake API
  /// through the session passed to `init`: before that, nothing it checks can happen.
  static var afterTask1: Self {
    .enabled(
      guide.task(
        1,
        "skipped until load() sends its request through the session passed to init; this test needs the fake API to answer"
      )
    ) { await task1IsDone.value }
  }
}

/// Task 1's check, run once for every test that needs it. Bounded, because it
/// runs before any test starts: a `load()` that never returns would otherwise
/// hang the run before the test runner names a test (the tests of Task 1 then
/// hang instead, and `course` names them).
private let task1IsDone = Task { await boundedCheck { await loadReachesTheInjectedSession() } ?? false }

/// Whether a fresh view model's `load()` sends exactly one request through the
/// session it was given, and none through `URLSession.shared`.
@MainActor
private func loadReachesTheInjectedSession() async -> Bool {
  let api = FakeCatalogAPI()
  await ProductListViewModel(baseURL: api.baseURL, session: api.session).load()
  return api.requests.count == 1 && api.sharedSessionRequests.isEmpty
}

/// `nil`, or the message in quotes, for a failure message that must show exactly what was set.
private func quoted(_ message: String?) -> String {
  message.map { "\"\($0)\"" } ?? "nil"
}
