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
  /// Migration 3: a fetch time per product, and the list with its order and its own fetch time.
  ///
  /// A product saved through stage 04's `save(_:)` gets no fetch time: its age
  /// is unknown, so it is not a cache entry.
  static func migrateToVersion3(_ database: SQLiteConnection) throws {
    // TODO: Task 2. The schema of "The disk tier remembers fetch times" (Docs/05-CachingRepository.md).
    throw NotDoneYet("Task 2", in: "Docs/05-CachingRepository.md", "migration 3 should add the cache's schema")
  }

  func cachedList() throws -> CacheEntry<[Product]>? {
    // TODO: Task 2. The cached list, in its order, with its fetch time.
    throw NotDoneYet("Task 2", in: "Docs/05-CachingRepository.md", "cachedList() should read the cached list")
  }

  /// Saves the products and the list in one transaction: all of it, or, when one row fails, none.
  func saveList(_ products: [Product], fetchedAt: Date) throws {
    // TODO: Task 2. Save the list, its order and its time, all or nothing.
    throw NotDoneYet("Task 2", in: "Docs/05-CachingRepository.md", "saveList(_:fetchedAt:) should cache the list")
  }

  func cachedProduct(id: Int) throws -> CacheEntry<Product>? {
    // TODO: Task 2. The cached product with its fetch time.
    throw NotDoneYet("Task 2", in: "Docs/05-CachingRepository.md", "cachedProduct(id:) should read a cached product")
  }

  func saveProduct(_ product: Product, fetchedAt: Date) throws {
    // TODO: Task 2. Save the product with its time.
    throw NotDoneYet("Task 2", in: "Docs/05-CachingRepository.md", "saveProduct(_:fetchedAt:) should cache a product")
  }
}
