import Foundation
import Synchronization

@testable import Solution05

/// Spy and stub: a remote source that answers a page or an error, and counts the calls.
final class SpyRemote: ProductRemoteDataSource {
  private let answer: Result<[Product], any Error>
  private let count = Mutex(0)

  init(_ answer: Result<[Product], any Error>) { self.answer = answer }

  var calls: Int { count.withLock { $0 } }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    count.withLock { $0 += 1 }
    let products = try answer.get()
    return ProductPage(products: products, total: products.count, skip: skip, limit: limit)
  }

  func product(id: Int) async throws -> Product {
    count.withLock { $0 += 1 }
    guard let product = try answer.get().first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: nil)
    }
    return product
  }
}

/// A disk store whose every write fails, as a full disk does; it has nothing cached.
struct RefusingStore: ProductCacheStore {
  struct DiskFull: Error {}

  func cachedList() async throws -> CacheEntry<[Product]>? { nil }
  func saveList(_ products: [Product], fetchedAt: Date) async throws { throw DiskFull() }
  func cachedProduct(id: Int) async throws -> CacheEntry<Product>? { nil }
  func saveProduct(_ product: Product, fetchedAt: Date) async throws { throw DiskFull() }
}

/// A product with only what these tests look at chosen.
func product(_ id: Int) -> Product {
  Product(
    id: id, title: "Product \(id)", description: "", category: "test", price: 1, discountPercentage: 0,
    rating: 0, stock: 1, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 0))
}

/// The moment every test's clock reads.
let noon = Date(timeIntervalSince1970: 1_800_000_000)
