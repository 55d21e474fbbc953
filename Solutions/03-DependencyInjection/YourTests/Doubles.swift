import Foundation

@testable import Solution03

/// Stub: answers every call with the answer the test gave it, and records nothing.
struct StubRepository: ProductRepository {
  let answer: Result<[Product], any Error>

  func products() async throws -> [Product] { try answer.get() }

  func product(id: Int) async throws -> Product {
    throw RemoteDataSourceError.http(status: 404, message: nil)
  }
}

/// A product with only what these tests look at chosen.
func product(_ id: Int) -> Product {
  Product(
    id: id, title: "Product \(id)", description: "", category: "test", price: 1, discountPercentage: 0,
    rating: 0, stock: 1, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 0))
}
