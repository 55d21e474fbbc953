import CourseFixtures
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

struct ProductDTOTests {
  /// Every real record, decoded with the Catalog decoder and mapped.
  func mapAllRecords() throws -> [Product] {
    let dtos = try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data)
    return try dtos.map { try $0.toDomain() }
  }

  @Test func decodesAndMapsAll194RealRecords() {
    let mapped = Result { try mapAllRecords() }
    #expect(
      (try? mapped.get())?.count == 194,
      guide.task(2, "all 194 real records should decode and map, got \(mapped.map(\.count))")
    )
  }

  @Test func keepsTheBrandOptional() throws {
    let products = try #require(try? mapAllRecords(), guide.task(2, "the 194 records must map first"))
    let withoutBrand = products.filter { $0.brand == nil }
    #expect(
      withoutBrand.count == 92,
      guide.task(2, "92 real records have no brand; expected 92 products with brand nil, got \(withoutBrand.count)"))
    #expect(
      products.first?.brand == "Essence",
      guide.task(2, "product 1's brand is Essence, got \(String(describing: products.first?.brand))"))
  }

  @Test(arguments: [(1, "9.99"), (2, "19.99"), (78, "1999.99"), (123, "1099.99"), (170, "36999.99")])
  func keepsPricesAsExactMoney(id: Int, price: String) throws {
    let products = try #require(try? mapAllRecords(), guide.task(2, "the 194 records must map first"))
    let product = try #require(
      products.first { $0.id == id }, guide.task(2, "product \(id) should be among the mapped products"))
    #expect(
      product.price == Decimal(string: price),
      guide.task(
        2,
        "product \(id) costs exactly \(price); got \(product.price). Decimal(aDouble) keeps the binary error: go through the number's text"
      )
    )
  }

  @Test func carriesTheFieldsTheAppShows() throws {
    let products = try #require(try? mapAllRecords(), guide.task(2, "the 194 records must map first"))
    let first = try #require(products.first, guide.task(2, "the mapped products should not be empty"))
    let expected = Product(
      id: 1, title: "Essence Mascara Lash Princess",
      description: first.description, category: "beauty", price: Decimal(string: "9.99")!,
      discountPercentage: 10.48, rating: 2.56, stock: 99, brand: "Essence",
      thumbnail: URL(
        string: "https://cdn.dummyjson.com/product-images/beauty/essence-mascara-lash-princess/thumbnail.webp"),
      updatedAt: Date(timeIntervalSince1970: 1_746_006_062.053))
    #expect(first == expected, guide.task(2, "product 1 should map field by field to \(expected), got \(first)"))
    #expect(
      first.description.hasPrefix("The Essence Mascara"), guide.task(2, "description should be the API's description"))
  }

  @Test func refusesANegativePrice() throws {
    let json =
      #"{"id": 7, "title": "Broken", "description": "", "category": "x", "price": -1, "discountPercentage": 0, "rating": 0, "stock": 0, "meta": {"updatedAt": "2025-04-30T09:41:02.053Z"}}"#
    let dto = try JSONDecoder.catalog().decode(ProductDTO.self, from: Data(json.utf8))
    let mapped = Result { try dto.toDomain() }
    var isInvalidData = false
    if case .failure(RemoteDataSourceError.invalidData) = mapped { isInvalidData = true }
    #expect(
      isInvalidData,
      guide.task(
        2, "a price of -1 is not money the app can show: expected RemoteDataSourceError.invalidData, got \(mapped)"))
  }
}
