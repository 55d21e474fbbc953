import Foundation

/// A cached value and when the network answered with it.
nonisolated struct CacheEntry<Value: Sendable>: Sendable {
  var value: Value
  var fetchedAt: Date
}

nonisolated extension CacheEntry: Equatable where Value: Equatable {}

/// The local store as the caching repository uses it: values together with the
/// time they were fetched, so ages survive a restart.
///
/// Every product keeps the fetch time of the answer that brought it: saving a
/// list stamps each of its products, so `cachedProduct(id:)` finds a product
/// that arrived in a list.
nonisolated protocol ProductCacheStore: Sendable {
  /// The cached first page, in the order it was saved, or `nil` when none was saved.
  ///
  /// A saved empty list comes back as an entry with no products, never `nil`.
  func cachedList() async throws -> CacheEntry<[Product]>?

  /// Replaces the cached first page, and saves each of its products with the same fetch time.
  func saveList(_ products: [Product], fetchedAt: Date) async throws

  /// The cached product with this id and its fetch time, or `nil`.
  func cachedProduct(id: Int) async throws -> CacheEntry<Product>?

  /// Saves one product with its fetch time, replacing any with the same id.
  func saveProduct(_ product: Product, fetchedAt: Date) async throws
}
