import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// The page's own rules live in the finished `ProductPageDTO.toDomain()`: the
/// pattern for the product rules you write in Task 2.
@Suite(.timeLimit(.minutes(1)))
struct ProductPageDTOTests {
  static let three: [ProductDTO] = [.valid(id: 1), .valid(id: 2), .valid(id: 3)]

  /// Pages whose numbers contradict themselves or their products, and the field the refusal must name.
  static let inconsistentPages: [(problem: String, page: ProductPageDTO, field: String)] = [
    ("a negative total", ProductPageDTO(products: [], total: -1, skip: 0, limit: 0), "total"),
    ("a negative skip", ProductPageDTO(products: [], total: 0, skip: -1, limit: 0), "skip"),
    ("a negative limit", ProductPageDTO(products: [], total: 0, skip: 0, limit: -1), "limit"),
    ("3 products under a limit of 2", ProductPageDTO(products: three, total: 194, skip: 0, limit: 2), "limit"),
    ("products 193 to 195 of 194", ProductPageDTO(products: three, total: 194, skip: 192, limit: 3), "total"),
    (
      "a skip so large that skip + count overflows", ProductPageDTO(products: three, total: 194, skip: .max, limit: 3),
      "total"
    ),
    (
      "product 2 twice",
      ProductPageDTO(products: [.valid(id: 1), .valid(id: 2), .valid(id: 2)], total: 194, skip: 0, limit: 3), "id 2"
    ),
  ]

  @Test(arguments: inconsistentPages)
  func refusesAnInconsistentPage(problem: String, page: ProductPageDTO, field: String) async {
    let outcome = Result { try page.toDomain() }
    #expect(
      isInvalidData(outcome.failure, naming: field),
      guide.task(
        2,
        "a page with \(problem) is not what the API promises: expected RemoteDataSourceError.invalidData naming \"\(field)\", got \(outcome.described)",
        blaming: outcome.failure)
    )
  }

  @Test func aPagePastTheEndIsEmptyNotInvalid() async throws {
    let page = try await guide.attempt(2, "skip 500 of 194 with no products is how the API answers past the end") {
      try ProductPageDTO(products: [], total: 194, skip: 500, limit: 0).toDomain()
    }
    #expect(page.products.isEmpty, guide.task(2, "expected an empty page, got \(page.products.count) products"))
  }

  @Test func aConsistentPageMaps() async throws {
    let page = try await guide.attempt(2, "products 1 to 3 of 194 under a limit of 3 make a valid page") {
      try ProductPageDTO(products: Self.three, total: 194, skip: 0, limit: 3).toDomain()
    }
    #expect(
      page.products.map(\.id) == [1, 2, 3] && (page.total, page.skip, page.limit) == (194, 0, 3),
      guide.task(2, "expected products [1, 2, 3], total 194, skip 0, limit 3; got \(shown(page))"))
  }

  @Test func oneInvalidProductFailsThePage() async {
    let page = ProductPageDTO(products: [.valid(id: 1), .valid(id: 2, stock: -5)], total: 194, skip: 0, limit: 2)
    let outcome = Result { try page.toDomain() }
    #expect(
      isInvalidData(outcome.failure, naming: "stock"),
      guide.task(
        2, "product 2 has stock -5, so the page fails: expected invalidData naming \"stock\", got \(outcome.described)",
        blaming: outcome.failure)
    )
  }
}
