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
@MainActor
struct ProductListViewModelTests {
  let api = FakeCatalogAPI()

  func makeViewModel() -> ProductListViewModel {
    ProductListViewModel(baseURL: api.baseURL, session: api.session)
  }

  // MARK: Task 1

  @Test func sendsItsRequestThroughTheInjectedSession() async {
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      api.sharedSessionRequests.isEmpty,
      guide.task(
        1,
        "load() sent \(api.sharedSessionRequests.count) request(s) through URLSession.shared; send them through the session passed to init"
      )
    )
    #expect(
      api.requests.map(\.path) == ["/products"],
      guide.task(1, "expected one GET /products through the injected session, got \(api.requests.map(\.path))")
    )
  }

  @Test func showsTheFirstPageOfProducts() async {
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      viewModel.products.count == 30,
      guide.task(
        1,
        "a 200 with 30 products should show 30 products, got \(viewModel.products.count) (errorMessage: \(viewModel.errorMessage ?? "nil"))"
      )
    )
    #expect(
      viewModel.products.first?.title == "Essence Mascara Lash Princess",
      guide.task(
        1, "the first product should be the API's first record, got \(viewModel.products.first?.title ?? "none")")
    )
    #expect(
      viewModel.errorMessage == nil,
      guide.task(1, "a successful load should leave errorMessage nil, got \(viewModel.errorMessage ?? "nil")"))
  }

  // MARK: Task 2

  @Test(arguments: [
    (404, "Products not found"),
    (500, "Database unavailable"),
  ])
  func reportsAnHTTPErrorWithTheServersMessage(status: Int, message: String) async {
    api.inject(.status(status, message: message), on: .list)
    let viewModel = makeViewModel()
    await viewModel.load()
    let shown = viewModel.errorMessage ?? "nil"
    #expect(
      shown.contains(String(status)) && shown.contains(message),
      guide.task(
        2,
        "a \(status) with {\"message\": \"\(message)\"} should set errorMessage to a sentence holding both \(status) and the message, got \(shown)"
      )
    )
    #expect(
      viewModel.products.isEmpty,
      guide.task(2, "a \(status) carries no products, yet the list shows \(viewModel.products.count)")
    )
  }

  // MARK: Task 3

  @Test func showsAnEmptyListWithoutAnError() async {
    let empty = FakeCatalogAPI(products: [])
    let viewModel = ProductListViewModel(baseURL: empty.baseURL, session: empty.session)
    await viewModel.load()
    #expect(
      viewModel.products.isEmpty && viewModel.errorMessage == nil,
      guide.task(
        3,
        "an empty catalog is a success: expected no products and errorMessage nil, got \(viewModel.products.count) products and errorMessage \(viewModel.errorMessage ?? "nil")"
      )
    )
    #expect(
      empty.requests.count == 1, guide.task(1, "expected 1 request to the empty catalog, got \(empty.requests.count)"))
  }

  @Test(arguments: [Fault.malformedBody, .truncatedBody, .nonJSONBody])
  func reportsABodyItCannotRead(fault: Fault) async {
    api.inject(fault, on: .list)
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      viewModel.errorMessage != nil,
      guide.task(
        3,
        "a 200 whose body is not a product page (\(fault)) is a failure, not an empty list: expected an errorMessage, got nil"
      )
    )
  }

  @Test func saysSoWhenOffline() async {
    api.inject(.offline)
    let viewModel = makeViewModel()
    await viewModel.load()
    let shown = viewModel.errorMessage ?? "nil"
    #expect(
      shown.localizedCaseInsensitiveContains("offline"),
      guide.task(
        3,
        "URLError(.notConnectedToInternet) should tell the user they are offline: expected an errorMessage containing \"offline\", got \(shown)"
      )
    )
  }

  @Test func keepsTheProductsOnScreenWhenAReloadFails() async {
    let viewModel = makeViewModel()
    await viewModel.load()
    api.inject(.status(500, message: "Database unavailable"))
    await viewModel.load()
    #expect(
      viewModel.products.count == 30,
      guide.task(3, "a failed reload must not wipe the 30 products already shown, got \(viewModel.products.count)")
    )
    #expect(viewModel.errorMessage != nil, guide.task(3, "the failed reload should still set errorMessage, got nil"))
  }

  // MARK: Task 4

  @Test func showsTheSpinnerOnlyWhileTheRequestIsInFlight() async throws {
    let viewModel = makeViewModel()
    api.inject(.latency(.seconds(2)))
    let load = Task { await viewModel.load() }
    let waiting = await api.clock.waitForSleepers(count: 1, whileRunning: load)
    try #require(
      waiting, guide.task(1, "the request never reached the fake API's session, so there was nothing in flight"))
    #expect(viewModel.isLoading, guide.task(4, "while the request is in flight isLoading should be true, got false"))
    api.clock.advance(by: .seconds(2))
    await load.value
    #expect(!viewModel.isLoading, guide.task(4, "after a successful load isLoading should be false, got true"))
  }

  @Test(arguments: [Fault.status(500, message: "Database unavailable"), .offline, .malformedBody])
  func turnsTheSpinnerOffAfterAFailure(fault: Fault) async {
    api.inject(fault)
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      !viewModel.isLoading,
      guide.task(
        4, "after a failed load (\(fault)) isLoading should be false, got true: the spinner would spin forever")
    )
  }

  // MARK: Task 5

  @Test func aRetryAfterAFailureShowsProductsAndClearsTheError() async {
    api.inject(.status(503, message: "Try again soon"), times: 1)
    let viewModel = makeViewModel()
    await viewModel.load()
    #expect(
      viewModel.errorMessage != nil, guide.task(2, "the first load got a 503 and should set errorMessage, got nil"))
    await viewModel.load()
    #expect(
      viewModel.products.count == 30 && viewModel.errorMessage == nil,
      guide.task(
        5,
        "the retry succeeded: expected 30 products and errorMessage nil, got \(viewModel.products.count) products and errorMessage \(viewModel.errorMessage ?? "nil")"
      )
    )
    #expect(!viewModel.isLoading, guide.task(4, "after the retry isLoading should be false, got true"))
    #expect(
      api.requests.count == 2, guide.task(5, "a retry is a second request: expected 2, got \(api.requests.count)"))
  }
}
