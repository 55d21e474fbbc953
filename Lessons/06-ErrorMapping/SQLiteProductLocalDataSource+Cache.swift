import CourseSQLite
import Foundation

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
    try database.execute(version3)
  }

  private static let version3 = """
    ALTER TABLE products ADD COLUMN fetched_at REAL;
    CREATE TABLE cached_lists (
      name TEXT PRIMARY KEY,
      fetched_at REAL NOT NULL
    );
    CREATE TABLE cached_list_items (
      list_name TEXT NOT NULL REFERENCES cached_lists (name) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      product_id INTEGER NOT NULL REFERENCES products (id),
      PRIMARY KEY (list_name, position)
    );
    """

  /// Stage 06. Migration 4: a product in a cached list can be deleted, and leaves the list.
  ///
  /// Migration 3 shipped `cached_list_items.product_id` without `ON DELETE`, so
  /// with foreign keys on, deleting a product that a cached list holds failed.
  /// Migration 3 has run on devices; it stays as it shipped. SQLite cannot change
  /// a foreign key in place, so the table is rebuilt (sqlite.org/lang_altertable.html,
  /// "other kinds of table schema changes"): a new table with the new key, the
  /// rows copied, the old table dropped, the new one renamed, the keys checked.
  /// Only the referencing table changes, so foreign keys can stay on, and the
  /// migration runs in `migrate(_:)`'s transaction: all of it, or none.
  static func migrateToVersion4(_ database: SQLiteConnection) throws {
    try database.execute(version4)
    let broken = try database.prepare("PRAGMA foreign_key_check(cached_list_items)").query { $0.text(at: 0) }
    guard broken.isEmpty else {
      throw SQLiteError(
        code: .constraint, message: "migration 4 left \(broken.count) cached list item(s) without their product")
    }
  }

  private static let version4 = """
    CREATE TABLE cached_list_items_new (
      list_name TEXT NOT NULL REFERENCES cached_lists (name) ON DELETE CASCADE,
      position INTEGER NOT NULL,
      product_id INTEGER NOT NULL REFERENCES products (id) ON DELETE CASCADE,
      PRIMARY KEY (list_name, position)
    );
    INSERT INTO cached_list_items_new (list_name, position, product_id)
      SELECT list_name, position, product_id FROM cached_list_items;
    DROP TABLE cached_list_items;
    ALTER TABLE cached_list_items_new RENAME TO cached_list_items;
    """

  /// The name the first page is cached under.
  static let firstPage = "first-page"

  func cachedList() throws -> CacheEntry<[Product]>? {
    let times = try database.prepare("SELECT fetched_at FROM cached_lists WHERE name = ?")
      .query([.text(Self.firstPage)]) { $0.double(at: 0) }
    guard let fetchedAt = times.first else { return nil }
    let products = try database.prepare(
      """
      SELECT \(ProductRow.columns) FROM cached_list_items JOIN products ON products.id = cached_list_items.product_id
      WHERE list_name = ? ORDER BY position
      """
    )
    .query([.text(Self.firstPage)]) { ProductRow(statement: $0) }
    .map { try $0.toDomain() }
    return CacheEntry(value: products, fetchedAt: Date(timeIntervalSinceReferenceDate: fetchedAt))
  }

  /// Saves the products and the list in one transaction: all of it, or, when one row fails, none.
  func saveList(_ products: [Product], fetchedAt: Date) throws {
    let time = SQLiteValue.real(fetchedAt.timeIntervalSinceReferenceDate)
    let name = SQLiteValue.text(Self.firstPage)
    try database.transaction {
      try upsert(products, fetchedAt: time)
      try database.prepare(
        """
        INSERT INTO cached_lists (name, fetched_at) VALUES (?, ?)
        ON CONFLICT(name) DO UPDATE SET fetched_at = excluded.fetched_at
        """
      ).run([name, time])
      try database.prepare("DELETE FROM cached_list_items WHERE list_name = ?").run([name])
      let item = try database.prepare(
        "INSERT INTO cached_list_items (list_name, position, product_id) VALUES (?, ?, ?)")
      for (position, product) in products.enumerated() {
        try item.run([name, .integer(Int64(position)), .integer(Int64(product.id))])
      }
    }
  }

  func cachedProduct(id: Int) throws -> CacheEntry<Product>? {
    try database.prepare(
      "SELECT \(ProductRow.columns), fetched_at FROM products WHERE id = ? AND fetched_at IS NOT NULL"
    )
    .query([.integer(Int64(id))]) { (ProductRow(statement: $0), $0.double(at: 11)) }
    .first
    .map { row, fetchedAt in
      CacheEntry(value: try row.toDomain(), fetchedAt: Date(timeIntervalSinceReferenceDate: fetchedAt))
    }
  }

  func saveProduct(_ product: Product, fetchedAt: Date) throws {
    try database.transaction {
      try upsert([product], fetchedAt: .real(fetchedAt.timeIntervalSinceReferenceDate))
    }
  }

  /// Upserts each product with stage 04's statement and row, then stamps its fetch time.
  private func upsert(_ products: [Product], fetchedAt: SQLiteValue) throws {
    let upsert = try database.prepare(Self.upsert)
    let stamp = try database.prepare("UPDATE products SET fetched_at = ? WHERE id = ?")
    for product in products {
      try upsert.run(Self.savableRow(product).values)
      try stamp.run([fetchedAt, .integer(Int64(product.id))])
    }
  }
}
