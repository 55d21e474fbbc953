import CourseSQLite
import Foundation

/// A `ProductLocalDataSource` on SQLite: products survive a restart.
///
/// It keeps the protocol of stage 02, so nothing above the data layer changes.
/// The actor serializes every use of its one connection.
actor SQLiteProductLocalDataSource {
  // Stage 05: not private, so SQLiteProductLocalDataSource+Cache.swift can use it.
  let database: SQLiteConnection

  /// Opens (or creates) the database at `path`, or `":memory:"`, and brings its schema up to date.
  ///
  /// - Throws: `SQLiteError`, for example "file is not a database" for a file
  ///   that is not SQLite; `openOrReset(path:)` shows what a cache can do then.
  init(path: String) throws {
    let database = try SQLiteConnection(path: path)
    try database.migrate(Self.migrations)
    self.database = database
  }

  /// The schema's history. Never edit a shipped migration: add the next one.
  static let migrations: [SQLiteMigration] = [
    // Version 1: the table as the first release shipped it.
    SQLiteMigration(
      version: 1,
      sql: """
        CREATE TABLE products (
          id INTEGER PRIMARY KEY,
          title TEXT NOT NULL CHECK (length(title) > 0),
          description TEXT NOT NULL,
          category TEXT NOT NULL,
          price TEXT NOT NULL,
          discount_percentage REAL NOT NULL,
          rating REAL NOT NULL,
          stock INTEGER NOT NULL CHECK (stock >= 0),
          thumbnail TEXT,
          updated_at REAL NOT NULL
        )
        """),
    // Version 2: brands arrive, and the list's order gets an index.
    SQLiteMigration(
      version: 2,
      sql: """
        ALTER TABLE products ADD COLUMN brand TEXT;
        CREATE INDEX products_newest_first ON products (updated_at DESC, id);
        """),
    // Stage 05. Version 3: the cache remembers when each product and each list was fetched.
    SQLiteMigration(version: 3, apply: migrateToVersion3),
    // Stage 06. Version 4: deleting a product takes it out of the cached lists.
    SQLiteMigration(version: 4, apply: migrateToVersion4),
  ]

  // Stage 05: not private, so SQLiteProductLocalDataSource+Cache.swift can reuse it.
  static let upsert = """
    INSERT INTO products (\(ProductRow.columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT(id) DO UPDATE SET
      title = excluded.title, description = excluded.description, category = excluded.category,
      price = excluded.price, discount_percentage = excluded.discount_percentage, rating = excluded.rating,
      stock = excluded.stock, brand = excluded.brand, thumbnail = excluded.thumbnail,
      updated_at = excluded.updated_at
    """

  func products() throws -> [Product] {
    try database.prepare("SELECT \(ProductRow.columns) FROM products ORDER BY updated_at DESC, id")
      .query { ProductRow(statement: $0) }
      .map { try $0.toDomain() }
  }

  func product(id: Int) throws -> Product? {
    try database.prepare("SELECT \(ProductRow.columns) FROM products WHERE id = ?")
      .query([.integer(Int64(id))]) { ProductRow(statement: $0) }
      .first?.toDomain()
  }

  /// Upserts every product in one transaction with one prepared statement:
  /// all of them are saved, or, when one fails, none.
  ///
  /// - Throws: `LocalDataSourceError.unsavable` for a price that is NaN or below
  ///   0, whose text would not read back as money; `SQLiteError` for a row the
  ///   table's constraints refuse.
  func save(_ products: [Product]) throws {
    try database.transaction {
      let statement = try database.prepare(Self.upsert)
      for product in products {
        try statement.run(Self.savableRow(product).values)
      }
    }
  }

  /// The row that stores `product`.
  ///
  /// Stage 05: taken out of `save(_:)`, so the cache's saves refuse the same prices.
  /// - Throws: `LocalDataSourceError.unsavable` for a price that is NaN or below
  ///   0, whose text would not read back as money.
  static func savableRow(_ product: Product) throws -> ProductRow {
    guard !product.price.isNaN, product.price >= 0 else {
      throw LocalDataSourceError.unsavable(id: product.id, reason: "price \(product.price) is not an amount of money")
    }
    return ProductRow(product)
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension SQLiteProductLocalDataSource: ProductLocalDataSource {}
