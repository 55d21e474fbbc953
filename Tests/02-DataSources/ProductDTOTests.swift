import CourseFixtures
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

@Suite(.timeLimit(.minutes(1)))
struct ProductDTOTests {
  /// Every real record, decoded with the Catalog decoder and mapped; a failure stops the test, naming Task 2.
  func mapAllRecords() async throws -> [Product] {
    let dtos = try await guide.attempt(2, "the 194 real records should decode into ProductDTO") {
      try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data)
    }
    return try await guide.attempt(2, "every one of the 194 real records should map to a Product") {
      try dtos.map(mapBlamingTheDateStub)
    }
  }

  /// `dto.toDomain()`, throwing Task 1's "not done yet" when CatalogDate.parse's stub is why it failed.
  func mapBlamingTheDateStub(_ dto: ProductDTO) throws -> Product {
    do {
      return try dto.toDomain()
    } catch {
      throw blamingTheDateStub(error, updatedAt: dto.meta.updatedAt) ?? error
    }
  }

  @Test func decodesAndMapsAll194RealRecords() async throws {
    let products = try await mapAllRecords()
    #expect(products.count == 194, guide.task(2, "expected 194 products, got \(products.count)"))
  }

  @Test func keepsTheBrandOptional() async throws {
    let products = try await mapAllRecords()
    let withoutBrand = products.filter { $0.brand == nil }
    #expect(
      withoutBrand.count == 92,
      guide.task(2, "92 real records have no brand; expected 92 products with brand nil, got \(withoutBrand.count)"))
    #expect(
      products.first?.brand == "Essence",
      guide.task(2, "product 1's brand is Essence, got \(shown(products.first?.brand as Any))"))
  }

  @Test func keepsPricesAsExactMoney() async throws {
    let byID = Dictionary(try await mapAllRecords().map { ($0.id, $0) }) { first, _ in first }
    let prices = [(1, "9.99"), (2, "19.99"), (78, "1999.99"), (123, "1099.99"), (170, "36999.99")]
    await guide.expectEvery(prices, task: 2, "each real price should come through exactly; copy the DTO's Decimal") {
      id, price in
      let mapped = byID[id].map { "\($0.price)" } ?? "no such product"
      return mapped == price ? nil : ("product \(id) costs \(price), got \(mapped)", nil)
    }
  }

  @Test func keepsAPriceADoubleCannotHold() async throws {
    let digits = "99999999999999.99"
    // The premise: through Double, these digits come back as 99999999999999.98.
    try #require(Decimal(string: "\(Double(digits) ?? 0)") != Decimal(string: digits))
    let json =
      #"{"id": 7, "title": "Yacht", "description": "", "category": "x", "price": "#
      + digits
      + #", "discountPercentage": 0, "rating": 5, "stock": 1, "meta": {"updatedAt": "2025-04-30T09:41:02.053Z"}}"#
    let dto = try await guide.attempt(2, "a record priced \(digits) should decode into ProductDTO") {
      try JSONDecoder.catalog().decode(ProductDTO.self, from: Data(json.utf8))
    }
    let product = try await guide.attempt(2, "a record priced \(digits) should map") { try mapBlamingTheDateStub(dto) }
    #expect(
      product.price == Decimal(string: digits),
      guide.task(
        2,
        "a price of \(digits) should stay exactly that, got \(product.price): the money passed through a Double somewhere"
      )
    )
  }

  @Test func carriesTheFieldsTheAppShows() async throws {
    let products = try await mapAllRecords()
    let first = try #require(products.first, guide.task(2, "the mapped products should not be empty"))
    var expected = Product(
      id: 1, title: "Essence Mascara Lash Princess",
      description: first.description, category: "beauty", price: Decimal(string: "9.99") ?? 0,
      discountPercentage: 10.48, rating: 2.56, stock: 99, brand: "Essence",
      thumbnail: URL(
        string: "https://cdn.dummyjson.com/product-images/beauty/essence-mascara-lash-princess/thumbnail.webp"),
      updatedAt: first.updatedAt)
    #expect(
      first == expected,
      guide.task(
        2, "product 1 should map field by field; differences: \(differences(expected: expected, actual: first))")
    )
    expected.updatedAt = Date(timeIntervalSince1970: 1_746_006_062.053)
    #expect(
      abs(first.updatedAt.timeIntervalSince(expected.updatedAt)) < 0.000_001,
      guide.task(
        2,
        "product 1's updatedAt is 2025-04-30T09:41:02.053Z; got \(first.updatedAt.timeIntervalSince1970) s after 1970")
    )
    #expect(
      first.description.hasPrefix("The Essence Mascara"), guide.task(2, "description should be the API's description"))
  }

  /// DTOs that decode but break one of the domain's rules, and the field the refusal must name.
  static let brokenRules: [(problem: String, dto: ProductDTO, field: String)] = [
    ("an empty title", .valid(title: ""), "title"),
    ("a blank title", .valid(title: " \n\t"), "title"),
    ("a NUL inside the title", .valid(title: "Lamp\u{0}shade"), "title"),
    ("a price of -1", .valid(price: -1), "price"),
    ("a price that is NaN", .valid(price: .nan), "price"),
    ("a stock of -1", .valid(stock: -1), "stock"),
    ("a discount of 101%", .valid(discountPercentage: 101), "discountPercentage"),
    ("a discount of -0.5%", .valid(discountPercentage: -0.5), "discountPercentage"),
    ("a discount that is NaN", .valid(discountPercentage: .nan), "discountPercentage"),
    ("a rating of 5.5", .valid(rating: 5.5), "rating"),
    ("a rating of -1", .valid(rating: -1), "rating"),
    ("a rating that is NaN", .valid(rating: .nan), "rating"),
    ("an updatedAt of February 30", .valid(updatedAt: "2025-02-30T09:41:02.053Z"), "updatedAt"),
    ("an updatedAt at hour 25", .valid(updatedAt: "2025-04-30T25:41:02Z"), "updatedAt"),
    ("an updatedAt with text after the zone", .valid(updatedAt: "2025-04-30T09:41:02.053Zjunk"), "updatedAt"),
  ]

  @Test func refusesValuesTheDomainForbids() async {
    await guide.expectEvery(
      Self.brokenRules, task: 2,
      "a product that breaks a rule should throw RemoteDataSourceError.invalidData naming the product and the field"
    ) { problem, dto, field in
      let outcome = Result { try dto.toDomain() }
      if isInvalidData(outcome.failure, naming: field) {
        guard !isInvalidData(outcome.failure, naming: "product \(dto.id)") else { return nil }
        return (
          "\(problem) gave \(outcome.map { _ in "a Product" }.described), which names the field but not product \(dto.id) (\"product \(dto.id): \(field) …\")",
          outcome.failure
        )
      }
      var happened = "\(problem) (\(field)) gave \(outcome.map { _ in "a Product" }.described)"
      if field == "updatedAt", (try? CatalogDate.parse(dto.meta.updatedAt)) != nil {
        happened += ": CatalogDate.parse (Task 1) accepted it"
      }
      return (happened, blamingTheDateStub(outcome.failure, updatedAt: dto.meta.updatedAt))
    }
  }

  @Test func acceptsTheEdgesOfEachRange() async {
    let edges: [(problem: String, dto: ProductDTO)] = [
      ("a price of 0", .valid(price: 0)), ("a price of 0.01", .valid(price: Decimal(string: "0.01") ?? 0)),
      ("a stock of 0", .valid(stock: 0)), ("a discount of 0%", .valid(discountPercentage: 0)),
      ("a discount of 100%", .valid(discountPercentage: 100)), ("a rating of 0", .valid(rating: 0)),
      ("a rating of 5", .valid(rating: 5)), ("an updatedAt on a leap day", .valid(updatedAt: "2024-02-29T23:59:59Z")),
    ]
    await guide.expectEvery(edges, task: 2, "values at the edge of each rule are valid and should map") {
      problem, dto in
      let outcome = Result { try dto.toDomain() }
      return outcome.failure.map {
        ("\(problem) gave the error \(shown($0))", blamingTheDateStub($0, updatedAt: dto.meta.updatedAt))
      }
    }
  }
}
