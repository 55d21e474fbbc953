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

/// Task 1: the URLSession source against the fake Catalog API, when all goes well.
@Suite(.timeLimit(.minutes(1)))
struct RemoteDataSourceTests {
  let api = FakeCatalogAPI()

  @Test func requestsTheRightPage() async throws {
    let outcome = await Result { try await source(for: api).products(limit: 20, skip: 40) }
    let request = try #require(
      api.requests.first,
      guide.task(
        1, "products(limit:skip:) sent no request to the fake API; it gave \(outcome.described)",
        blaming: outcome.failure))
    #expect(request.method == "GET", guide.task(1, "a read is a GET, got \(request.method)"))
    #expect(request.path == "/products", guide.task(1, "expected the path /products, got \(request.path)"))
    #expect(
      request.query("limit") == "20" && request.query("skip") == "40",
      guide.task(1, "expected the query limit=20&skip=40, got \(request.url.query ?? "no query")")
    )
    #expect(
      request.header("Accept") == "application/json",
      guide.task(
        1,
        "every request should send Accept: application/json, got \(request.header("Accept") ?? "none"). Send the URLRequest itself (session.data(for:)), not only its URL"
      ))
  }

  @Test func requestsOneProductWithoutAQuery() async throws {
    let outcome = await Result { try await source(for: api).product(id: 42) }
    let request = try #require(
      api.requests.first,
      guide.task(
        1, "product(id: 42) sent no request to the fake API; it gave \(outcome.described)", blaming: outcome.failure)
    )
    #expect(
      request.method == "GET" && request.url.absoluteString == api.baseURL.absoluteString + "/products/42",
      guide.task(
        1,
        "product(id: 42) should be GET \(api.baseURL.absoluteString)/products/42, with no \"?\" when there is no query; got \(request.method) \(request.url.absoluteString)"
      ))
    #expect(
      request.header("Accept") == "application/json",
      guide.task(1, "every request should send Accept: application/json, got \(request.header("Accept") ?? "none")"))
  }

  /// A base URL with a path (`https://catalog.example/api`) keeps it, with or without a trailing slash.
  @Test(arguments: ["/api", "/api/"])
  func keepsTheBaseURLsPath(suffix: String) async throws {
    let base = try #require(URL(string: api.baseURL.absoluteString + suffix))
    let outcome = await Result {
      try await URLSessionProductRemoteDataSource(baseURL: base, session: api.session).product(id: 1)
    }
    let request = try #require(
      api.requests.first,
      guide.task(
        1, "product(id: 1) against \(base) sent no request; it gave \(outcome.described)", blaming: outcome.failure))
    var why = ""
    if request.path.contains("//") {
      why = ". Joining the base URL and the path as strings doubles the slash"
    } else if !request.path.hasPrefix("/api") {
      why = ". URL(string:relativeTo:) drops the base URL's path for a path that starts with /"
    }
    #expect(
      request.path == "/api/products/1",
      guide.task(
        1, "product(id: 1) against \(base) should request the path /api/products/1, got \(request.path)\(why)"))
  }

  @Test func returnsThePageAsDomainProducts() async throws {
    let page = try await guide.attempt(1, "products(limit: 5, skip: 10) should return a page") {
      try await source(for: api).products(limit: 5, skip: 10)
    }
    #expect(
      page.products.map(\.id) == Array(11...15),
      guide.task(1, "limit 5, skip 10 should return products 11 to 15, got \(page.products.map(\.id))")
    )
    #expect(
      (page.total, page.skip, page.limit) == (194, 10, 5),
      guide.task(1, "the page should carry total 194, skip 10, limit 5; got \(page.total), \(page.skip), \(page.limit)")
    )
  }

  /// Every real record, through HTTP; a failure stops the test, naming Task 1.
  func allRecords() async throws -> [Product] {
    try await guide.attempt(1, "products(limit: 0, skip: 0) should return all 194 real records as Products") {
      try await source(for: api).products(limit: 0, skip: 0).products
    }
  }

  @Test func decodesEveryRealRecord() async throws {
    let products = try await allRecords()
    #expect(
      products.map(\.id) == Array(1...194),
      guide.task(1, "limit 0 returns all 194 records, products 1 to 194 in order; got \(products.count) products"))
  }

  @Test func keepsTheBrandOptional() async throws {
    let products = try await allRecords()
    let withoutBrand = products.filter { $0.brand == nil }
    #expect(
      withoutBrand.count == 92,
      guide.task(1, "92 real records have no brand; expected 92 products with brand nil, got \(withoutBrand.count)"))
    #expect(
      products.first?.brand == "Essence",
      guide.task(1, "product 1's brand is Essence, got \(shown(products.first?.brand as Any))"))
  }

  @Test func keepsPricesAsExactMoney() async throws {
    let byID = Dictionary(try await allRecords().map { ($0.id, $0) }) { first, _ in first }
    let prices = [(1, "9.99"), (2, "19.99"), (78, "1999.99"), (123, "1099.99"), (170, "36999.99")]
    await guide.expectEvery(
      prices, task: 1, "each real price should come through exactly, as Decimal from the JSON's digits"
    ) { id, price in
      let mapped = byID[id].map { "\($0.price)" } ?? "no such product"
      return mapped == price ? nil : ("product \(id) costs \(price), got \(mapped)", nil)
    }
  }

  @Test func keepsAPriceADoubleCannotHold() async throws {
    let digits = "99999999999999.99"
    // The premise: through Double, these digits come back as 99999999999999.98.
    try #require(Decimal(string: "\(Double(digits) ?? 0)") != Decimal(string: digits))
    let outcome = await fetchProduct(answering: record(price: digits))
    let product = try await guide.attempt(1, "a record priced \(digits) should come through") { try outcome.get() }
    #expect(
      product.price == Decimal(string: digits),
      guide.task(
        1,
        "a price of \(digits) should stay exactly that, got \(product.price): the money passed through a Double somewhere"
      )
    )
  }

  @Test func anEmptyPageIsAResultNotAFailure() async throws {
    let empty = FakeCatalogAPI(products: [])
    let page = try await guide.attempt(1, "an empty catalog should answer with a valid empty page") {
      try await source(for: empty).products(limit: 30, skip: 0)
    }
    #expect(
      page == ProductPage(products: [], total: 0, skip: 0, limit: 0),
      guide.task(1, "expected an empty page with total, skip and limit 0, got \(shown(page))")
    )
  }

  @Test func fetchesOneProduct() async throws {
    let product = try await guide.attempt(1, "product(id: 6) should return Calvin Klein CK One") {
      try await source(for: api).product(id: 6)
    }
    #expect(
      product.title == "Calvin Klein CK One",
      guide.task(1, "product(id: 6) should be Calvin Klein CK One, got \(product.title)"))
    #expect(
      api.requests.map(\.path) == ["/products/6"],
      guide.task(1, "expected one GET /products/6, got \(api.requests.map(\.path))"))
  }

  @Test func carriesTheFieldsTheAppShows() async throws {
    let first = try await guide.attempt(1, "product(id: 1) should return the first real record") {
      try await source(for: api).product(id: 1)
    }
    let expected = Product(
      id: 1, title: "Essence Mascara Lash Princess",
      description: first.description, category: "beauty", price: Decimal(string: "9.99") ?? 0,
      discountPercentage: 10.48, rating: 2.56, stock: 99, brand: "Essence",
      thumbnail: URL(
        string: "https://cdn.dummyjson.com/product-images/beauty/essence-mascara-lash-princess/thumbnail.webp"),
      updatedAt: first.updatedAt)
    #expect(
      first == expected,
      guide.task(
        1, "product 1 should map field by field; differences: \(differences(expected: expected, actual: first))")
    )
    // Within a microsecond: how a Foundation rounds .053 to binary is its own business.
    #expect(
      abs(first.updatedAt.timeIntervalSince1970 - 1_746_006_062.053) < 0.000_001,
      guide.task(
        1,
        "product 1's updatedAt is 2025-04-30T09:41:02.053Z, 1746006062.053 s after 1970; got \(first.updatedAt.timeIntervalSince1970)\(dateMixUp(expected: Date(timeIntervalSince1970: 1_746_006_062.053), actual: first.updatedAt))"
      )
    )
    #expect(
      first.description.hasPrefix("The Essence Mascara"), guide.task(1, "description should be the API's description"))
  }

  @Test func aThumbnailIsAURL() async throws {
    let outcome = await fetchProduct(answering: record(thumbnail: #""https://cdn.example/lamp.webp""#))
    let product = try await guide.attempt(1, "a record with a thumbnail should come through") { try outcome.get() }
    #expect(
      product.thumbnail == URL(string: "https://cdn.example/lamp.webp"),
      guide.task(
        1, "thumbnail https://cdn.example/lamp.webp should become that URL, got \(shown(product.thumbnail as Any))"))
  }
}
