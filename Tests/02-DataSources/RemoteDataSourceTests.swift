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
struct RemoteDataSourceTests {
  let api = FakeCatalogAPI()
  var source: URLSessionProductRemoteDataSource {
    URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session)
  }

  @Test func requestsTheRightPage() async throws {
    _ = try? await source.products(limit: 20, skip: 40)
    let request = try #require(
      api.requests.first, guide.task(4, "products(limit:skip:) sent no request to the fake API"))
    #expect(request.method == "GET", guide.task(4, "expected GET, got \(request.method)"))
    #expect(request.path == "/products", guide.task(4, "expected the path /products, got \(request.path)"))
    #expect(
      request.query("limit") == "20" && request.query("skip") == "40",
      guide.task(4, "expected limit=20&skip=40, got \(request.url.query ?? "no query")")
    )
    #expect(
      request.header("Accept") == "application/json",
      guide.task(3, "expected Accept: application/json, got \(request.header("Accept") ?? "none")"))
  }

  @Test func returnsThePageAsDomainProducts() async {
    let page = await Result { try await source.products(limit: 5, skip: 10) }
    #expect(
      (try? page.get())?.products.map(\.id) == Array(11...15),
      guide.task(4, "limit 5, skip 10 should return products 11 to 15, got \(page.map { $0.products.map(\.id) })")
    )
    #expect(
      (try? page.get()).map { ($0.total, $0.skip, $0.limit) } ?? (0, 0, 0) == (194, 10, 5),
      guide.task(4, "the page should carry total 194, skip 10, limit 5")
    )
  }

  @Test func decodesEveryRealRecordThroughHTTP() async {
    let page = await Result { try await source.products(limit: 0, skip: 0) }
    #expect(
      (try? page.get())?.products.count == 194,
      guide.task(4, "limit 0 returns all 194 records, got \(page.map(\.products.count))"))
  }

  @Test func anEmptyPageIsAResultNotAFailure() async {
    let empty = FakeCatalogAPI(products: [])
    let source = URLSessionProductRemoteDataSource(baseURL: empty.baseURL, session: empty.session)
    let page = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      (try? page.get()) == ProductPage(products: [], total: 0, skip: 0, limit: 0),
      guide.task(4, "an empty catalog is a valid empty page, got \(page)")
    )
  }

  @Test func fetchesOneProduct() async {
    let product = await Result { try await source.product(id: 6) }
    #expect(
      (try? product.get())?.title == "Calvin Klein CK One",
      guide.task(4, "product(id: 6) should be Calvin Klein CK One, got \(product)"))
    #expect(
      api.requests.map(\.path) == ["/products/6"],
      guide.task(4, "expected GET /products/6, got \(api.requests.map(\.path))"))
  }

  @Test func aMissingProductIsA404WithTheServersMessage() async {
    let result = await Result { try await source.product(id: 999) }
    let expected = RemoteDataSourceError.http(status: 404, message: "Product with id '999' not found")
    #expect(
      result.failure as? RemoteDataSourceError == expected,
      guide.task(4, "expected \(expected), got \(result)")
    )
  }

  @Test func aServerErrorCarriesItsStatusAndMessage() async {
    api.inject(.status(500, message: "Database unavailable"), on: .list)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    let expected = RemoteDataSourceError.http(status: 500, message: "Database unavailable")
    #expect(
      result.failure as? RemoteDataSourceError == expected,
      guide.task(4, "expected \(expected), never an empty page; got \(result)"))
  }

  @Test func aResponseThatIsNotHTTPIsRefused() async {
    api.inject(.nonHTTPResponse)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      result.failure as? RemoteDataSourceError == .notHTTP,
      guide.task(
        4, "a URLResponse that is not an HTTPURLResponse has no status to check: expected .notHTTP, got \(result)")
    )
  }

  @Test(arguments: [Fault.malformedBody, .truncatedBody, .nonJSONBody, .body(#"{"items": []}"#)])
  func aBodyThatIsNotAPageIsADecodingError(fault: Fault) async {
    api.inject(fault)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    var isDecoding = false
    if case .failure(RemoteDataSourceError.decoding) = result { isDecoding = true }
    #expect(
      isDecoding,
      guide.task(
        4,
        "a 200 with a body that is not a page (\(fault)) should throw .decoding, never return an empty list; got \(result)"
      ))
  }

  @Test func offlineIsItsOwnError() async {
    api.inject(.offline)
    let result = await Result { try await source.products(limit: 30, skip: 0) }
    #expect(
      result.failure as? RemoteDataSourceError == .offline,
      guide.task(4, "URLError(.notConnectedToInternet) should become RemoteDataSourceError.offline, got \(result)")
    )
  }
}
