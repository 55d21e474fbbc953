import Foundation

/// A `ProductCacheStore` in memory: the reference the SQLite store is checked
/// against, and a store for previews and tests.
actor InMemoryProductCacheStore {
  private var list: (ids: [Int], fetchedAt: Date)?
  private var products: [Int: CacheEntry<Product>] = [:]

  init() {}

  func cachedList() -> CacheEntry<[Product]>? {
    guard let list else { return nil }
    return CacheEntry(value: list.ids.compactMap { products[$0]?.value }, fetchedAt: list.fetchedAt)
  }

  func saveList(_ products: [Product], fetchedAt: Date) {
    list = (products.map(\.id), fetchedAt)
    for product in products { self.products[product.id] = CacheEntry(value: product, fetchedAt: fetchedAt) }
  }

  func cachedProduct(id: Int) -> CacheEntry<Product>? { products[id] }

  func saveProduct(_ product: Product, fetchedAt: Date) {
    products[product.id] = CacheEntry(value: product, fetchedAt: fetchedAt)
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension InMemoryProductCacheStore: ProductCacheStore {}
