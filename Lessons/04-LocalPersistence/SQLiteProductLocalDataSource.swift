import CourseSQLite
import Foundation
import LessonSupport

/// A `ProductLocalDataSource` on SQLite: products survive a restart.
///
/// It keeps the protocol of stage 02, so nothing above the data layer changes.
/// The actor serializes every use of its one connection.
actor SQLiteProductLocalDataSource: ProductLocalDataSource {
  private let database: SQLiteConnection

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
    // TODO: Task 1. Version 1 creates the `products` table as Docs/04-LocalPersistence.md
    // specifies it: every column but `brand`, with the two CHECK constraints.
    SQLiteMigration(version: 1) { _ in
      throw NotDoneYet("Task 1", in: "Docs/04-LocalPersistence.md", "migration 1 should CREATE TABLE products")
    },
    // TODO: Task 2. Version 2 adds the `brand` column and an index for the list's order.
    SQLiteMigration(version: 2) { _ in
      throw NotDoneYet(
        "Task 2", in: "Docs/04-LocalPersistence.md", "migration 2 should add the brand column and an index")
    },
  ]

  // TODO: Task 4. One INSERT of every column in `ProductRow.columns` that, when
  // the id exists, updates that row instead: INSERT … ON CONFLICT(id) DO UPDATE SET ….
  private static let upsert = ""

  func products() throws -> [Product] {
    // TODO: Task 5. Select every row, newest updated_at first, then by id, and map each to a Product.
    throw NotDoneYet("Task 5", in: "Docs/04-LocalPersistence.md", "products() should read every row, newest first")
  }

  func product(id: Int) throws -> Product? {
    // TODO: Task 5. Select the row with this id, bound as a parameter, never pasted into the SQL.
    throw NotDoneYet("Task 5", in: "Docs/04-LocalPersistence.md", "product(id:) should read one row or return nil")
  }

  /// Upserts every product in one transaction with one prepared statement:
  /// all of them are saved, or, when one fails, none.
  ///
  /// - Throws: `LocalDataSourceError.unsavable` for a price that is NaN or below
  ///   0, whose text would not read back as money; `SQLiteError` for a row the
  ///   table's constraints refuse.
  func save(_ products: [Product]) throws {
    // TODO: Task 4. In one transaction, prepare `Self.upsert` once and run it for every
    // product, refusing a NaN or negative price with LocalDataSourceError.unsavable first.
    throw NotDoneYet(
      "Task 4", in: "Docs/04-LocalPersistence.md", "save(_:) should upsert every product in one transaction")
  }
}
