import CourseSQLite
import Foundation
import LessonSupport

/// The SQLite store as the caching repository's disk tier: products and the
/// first page, each with the time the network answered with it.
///
/// Fetch times are stored like `updated_at`, as the `Date`'s
/// `timeIntervalSinceReferenceDate`, so they come back to the last bit and an
/// age computed after a restart is the age computed before it.
extension SQLiteProductLocalDataSource: ProductCacheStore {
  /// Migration 3: a fetch time per product, and the cached lists with their order.
  ///
  /// A product saved through stage 04's `save(_:)` keeps `fetched_at` NULL: its
  /// age is unknown, so it is not a cache entry.
  static func migrateToVersion3(_ database: SQLiteConnection) throws {
    // TODO: Task 2. Add products.fetched_at, and the tables cached_lists and
    // cached_list_items as Docs/05-CachingRepository.md specifies them.
    throw NotDoneYet(
      "Task 2", in: "Docs/05-CachingRepository.md", "migration 3 should add fetched_at and the cached list tables")
  }

  /// The name the first page is cached under.
  static let firstPage = "first-page"

  func cachedList() throws -> CacheEntry<[Product]>? {
    // TODO: Task 2. The list's fetched_at from cached_lists (nil when there is no
    // row), then its products joined from cached_list_items, ORDER BY position.
    throw NotDoneYet(
      "Task 2", in: "Docs/05-CachingRepository.md", "cachedList() should read the list and its fetch time")
  }

  /// Saves the products and the list in one transaction: all of it, or, when one row fails, none.
  func saveList(_ products: [Product], fetchedAt: Date) throws {
    // TODO: Task 2. In one transaction: upsert each product (Self.upsert with
    // Self.savableRow(product).values) and set its fetched_at; upsert the list's
    // row; replace its items, one per position.
    throw NotDoneYet(
      "Task 2", in: "Docs/05-CachingRepository.md",
      "saveList(_:fetchedAt:) should save the list, its order and its time")
  }

  func cachedProduct(id: Int) throws -> CacheEntry<Product>? {
    // TODO: Task 2. The product's columns and fetched_at; a NULL fetched_at is not a cache entry.
    throw NotDoneYet(
      "Task 2", in: "Docs/05-CachingRepository.md", "cachedProduct(id:) should read the product and its fetch time")
  }

  func saveProduct(_ product: Product, fetchedAt: Date) throws {
    // TODO: Task 2. Upsert the product and set its fetched_at, in one transaction.
    throw NotDoneYet(
      "Task 2", in: "Docs/05-CachingRepository.md", "saveProduct(_:fetchedAt:) should save the product and its time")
  }
}
