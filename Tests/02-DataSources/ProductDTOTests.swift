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
      try dtos.map { try $0.toDomain() }
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
      guide.task(2, "product 1's brand is Essence, got \(String(describing: products.first?.brand))"))
  }

  @Test(arguments: [(1, "9.99"), (2, "19.99"), (78, "1999.99"), (123, "1099.99"), (170, "36999.99")])
  func keepsPricesAsExactMoney(id: Int, price: String) async throws {
    let products = try await mapAllRecords()
    let product = try #require(
      products.first { $0.id == id }, guide.task(2, "product \(id) should be among the mapped products"))
    #expect(
      product.price == Decimal(string: price),
      guide.task(2, "product \(id) costs exactly \(price); got \(product.price). Copy the DTO's Decimal as it is")
    )
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
    let product = try await guide.attempt(2, "a record priced \(digits) should map") { try dto.toDomain() }
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
    ("a price of -1", .valid(price: -1), "price"),
    ("a price that is NaN", .valid(price: .nan), "price"),
    ("a stock of -1", .valid(stock: -1), "stock"),
    ("a discount of 101%", .valid(discountPercentage: 101), "discountPercentage"),
    ("a discount of -0.5%", .valid(discountPercentage: -0.5), "discountPercentage"),
    ("a rating of 5.5", .valid(rating: 5.5), "rating"),
    ("a rating of -1", .valid(rating: -1), "rating"),
    ("a rating that is NaN", .valid(rating: .nan), "rating"),
    ("an updatedAt of February 30", .valid(updatedAt: "2025-02-30T09:41:02.053Z"), "updatedAt"),
    ("an updatedAt at hour 25", .valid(updatedAt: "2025-04-30T25:41:02Z"), "updatedAt"),
    ("an updatedAt with text after the zone", .valid(updatedAt: "2025-04-30T09:41:02.053Zjunk"), "updatedAt"),
  ]

  @Test(arguments: brokenRules)
  func refusesValuesTheDomainForbids(problem: String, dto: ProductDTO, field: String) async {
    let outcome = Result { try dto.toDomain() }
    #expect(
      isInvalidData(outcome.failure, naming: field),
      guide.task(
        2,
        "a product with \(problem) must not reach the app: expected RemoteDataSourceError.invalidData naming \"\(field)\", got \(outcome)",
        blaming: outcome.failure)
    )
  }

  @Test(arguments: ["0", "0.01", "5", "100"])
  func acceptsTheEdgesOfEachRange(value: String) async throws {
    let number = Double(value) ?? 0
    let dto = ProductDTO.valid(
      price: Decimal(string: value) ?? 0, discountPercentage: number, rating: min(number, 5), stock: Int(number))
    let product = try await guide.attempt(
      2,
      "a price of \(value), a discount of \(value)%, a rating of \(min(number, 5)) and a stock of \(Int(number)) are all allowed"
    ) { try dto.toDomain() }
    #expect(product.price == Decimal(string: value), guide.task(2, "price \(value) should map, got \(product.price)"))
  }
}
