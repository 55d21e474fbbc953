import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// The one place in stage 02 that still needs HTTP: the URLSession data source
/// itself, tested against the fake Catalog API.
@Suite(.timeLimit(.minutes(1)))
struct RemoteDataSourceTests {
  let api = FakeCatalogAPI()
  var source: URLSessionProductRemoteDataSource {
    URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session)
  }

  @Test func requestsTheRightPage() async throws {
    let outcome = await Result { try await source.products(limit: 20, skip: 40) }
    let request = try #require(
      api.requests.first,
      guide.task(
        4, "products(limit:skip:) sent no request to the fake API; it gave \(outcome.described)",
        blaming: outcome.failure))
    #expect(request.method == "GET", guide.task(4, "expected GET, got \(request.method)"))
    #expect(request.path == "/products", guide.task(4, "expected the path /products, got \(request.path)"))
    #expect(
      request.query("limit") == "20" && request.query("skip") == "40",
      guide.task(4, "expected limit=20&skip=40, got \(request.url.query ?? "no query")")
    )
    #expect(
      request.header("Accept") == "application/json",
      guide.task(
        3,
        "expected Accept: application/json, got \(request.header("Accept") ?? "none"). If Endpoint sets it, send the URLRequest with session.data(for:), not its URL"
      ))
  }

  @Test func returnsThePageAsDomainProducts() async throws {
    let page = try await guide.attempt(4, "products(limit: 5, skip: 10) should return a page") {
      try await source.products(limit: 5, skip: 10)
    }
    #expect(
      page.products.map(\.id) == Array(11...15),
      guide.task(4, "limit 5, skip 10 should return products 11 to 15, got \(page.products.map(\.id))")
    )
    #expect(
      (page.total, page.skip, page.limit) == (194, 10, 5),
      guide.task(4, "the page should carry total 194, skip 10, limit 5; got \(page.total), \(page.skip), \(page.limit)")
    )
  }

  @Test func decodesEveryRealRecordThroughHTTP() async throws {
    let page = try await guide.attempt(4, "products(limit: 0, skip: 0) should return every record") {
      try await source.products(limit: 0, skip: 0)
    }
    #expect(page.products.count == 194, guide.task(4, "limit 0 returns all 194 records, got \(page.products.count)"))
  }

  @Test func anEmptyPageIsAResultNotAFailure() async throws {
    let empty = FakeCatalogAPI(products: [])
    let source = URLSessionProductRemoteDataSource(baseURL: empty.baseURL, session: empty.session)
    let page = try await guide.attempt(4, "an empty catalog should answer with a valid empty page") {
      try await source.products(limit: 30, skip: 0)
    }
    #expect(
      page == ProductPage(products: [], total: 0, skip: 0, limit: 0),
      guide.task(4, "expected an empty page with total, skip and limit 0, got \(shown(page))")
    )
  }

  @Test func fetchesOneProduct() async throws {
    let product = try await guide.attempt(4, "product(id: 6) should return Calvin Klein CK One") {
      try await source.product(id: 6)
    }
    #expect(
      product.title == "Calvin Klein CK One",
      guide.task(4, "product(id: 6) should be Calvin Klein CK One, got \(product.title)"))
    #expect(
      api.requests.map(\.path) == ["/products/6"],
      guide.task(4, "expected GET /products/6, got \(api.requests.map(\.path))"))
  }

  @Test func aMissingProductIsA404WithTheServersMessage() async {
    let result = await Result { try await source.product(id: 999) }
    let expected = RemoteDataSourceError.http(status: 404, message: "Product with id '999' not found")
    #expect(
      result.failure as? RemoteDataSourceError == expected,
      guide.task(4, "expected \(shown(expected)), got \(result.described)", blaming: result.failure)
    )
  }

  @Test func aServerErrorCarriesItsStatusAndMessage() async {
    api.inject(.status(500, message: "Database unavailable"), on: .list)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    let expected = RemoteDataSourceError.http(status: 500, message: "Database unavailable")
    #expect(
      result.failure as? RemoteDataSourceError == expected,
      guide.task(
        4, "expected \(shown(expected)), never an empty page; got \(result.described)", blaming: result.failure))
  }

  @Test func aServerErrorWithAnHTMLBodyKeepsItsStatus() async {
    api.inject(.statusWithBody(502, body: "<html><body><h1>502 Bad Gateway</h1></body></html>"), on: .list)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    let expected = RemoteDataSourceError.http(status: 502, message: nil)
    #expect(
      result.failure as? RemoteDataSourceError == expected,
      guide.task(
        4,
        "a 502 whose body is a proxy's HTML page has no message to read: expected \(shown(expected)), got \(result.described). Read ErrorBody with try?, so a body that is not JSON still gives .http",
        blaming: result.failure))
  }

  @Test func aResponseThatIsNotHTTPIsRefused() async {
    api.inject(.nonHTTPResponse)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      result.failure as? RemoteDataSourceError == .notHTTP,
      guide.task(
        4,
        "a URLResponse that is not an HTTPURLResponse has no status to check: expected .notHTTP, got \(result.described)",
        blaming: result.failure)
    )
  }

  @Test func aBodyThatIsNotAPageIsADecodingError() async {
    let deep = String(repeating: "[", count: 100) + "0" + String(repeating: "]", count: 100)
    let bodies: [(name: String, fault: Fault)] = [
      ("a malformed body", .malformedBody), ("a truncated body", .truncatedBody), ("an HTML page", .nonJSONBody),
      (#"{"items": []}"#, .body(#"{"items": []}"#)),
      (
        "a page with a key nested 100 deep (decode with JSONDecoder.catalog(), which refuses more than 64 levels)",
        .body(#"{"products": [], "total": 0, "skip": 0, "limit": 0, "junk": \#(deep)}"#)
      ),
    ]
    await guide.expectEvery(
      bodies, task: 4, "a 200 whose body is not a page should throw .decoding, never return a page"
    ) { name, fault in
      let api = FakeCatalogAPI()
      api.inject(fault)
      let source = URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session)
      let result = await Result { try await source.products(limit: 30, skip: 0) }
      if case .failure(RemoteDataSourceError.decoding) = result { return nil }
      return ("\(name) gave \(result.described)", result.failure)
    }
  }

  @Test func aPageThatBreaksTheRulesIsInvalidDataNotDecoding() async {
    api.inject(
      .body(
        #"{"products": [{"id": 1, "title": "Lamp", "description": "", "category": "home", "price": 12, "discountPercentage": 0, "rating": 4, "stock": -3, "meta": {"updatedAt": "2025-04-30T09:41:02.053Z"}}], "total": 1, "skip": 0, "limit": 1}"#
      ))
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      isInvalidData(result.failure, naming: "stock"),
      guide.task(
        4,
        "a page that decodes but holds stock -3 should reach the caller as the mapper's .invalidData naming \"stock\", got \(result.described)",
        blaming: result.failure)
    )
  }

  @Test func offlineIsItsOwnError() async {
    api.inject(.offline)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      result.failure as? RemoteDataSourceError == .offline,
      guide.task(
        4, "URLError(.notConnectedToInternet) should become RemoteDataSourceError.offline, got \(result.described)",
        blaming: result.failure)
    )
  }

  @Test func aTimeoutIsATransportError() async {
    api.inject(.timeout)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    var isTransport = false
    if case .failure(RemoteDataSourceError.transport) = result { isTransport = true }
    #expect(
      isTransport,
      guide.task(
        4, "URLError(.timedOut) should become RemoteDataSourceError.transport, got \(result.described)",
        blaming: result.failure)
    )
  }

  @Test func aCancelledRequestIsCancellationNotAFailure() async throws {
    api.inject(.latency(.seconds(30)))
    let source = self.source
    let request = Task { try await source.products(limit: 30, skip: 0) }
    guard await api.clock.waitForSleepers(count: 1, whileRunning: request) else {
      let early = await request.result
      Issue.record(
        guide.task(
          4,
          "the request should reach the fake API and wait there for the test to cancel it; it ended first: \(early.described)",
          blaming: early.failure))
      return
    }
    request.cancel()
    let result = await request.result
    let isCancellation = result.failure is CancellationError
    #expect(
      isCancellation,
      guide.task(
        4,
        "a request cancelled in flight ends with URLError(.cancelled); that is no failure to show: throw CancellationError(), got \(result.described)"
      )
    )
  }
}
