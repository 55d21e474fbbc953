import CourseSQLite
import Foundation
import LessonSupport

/// A `ProductLocalDataSource` on SQLite: products survive a restart.
///
/// It keeps the protocol of stage 02, so nothing above the data layer changes.
/// Behind the protocol the design is yours: what kind of type this is and where
/// its work runs (Task 6), the schema, its migrations, and how a row becomes a
/// `Product` and back (add files beside this one as you see fit).
nonisolated final class SQLiteProductLocalDataSource: ProductLocalDataSource {
  /// Opens (or creates) the database at `path`, or `":memory:"`, and brings its schema up to date.
  ///
  /// - Throws: `SQLiteError`, for example "file is not a database" for a file
  ///   that is not SQLite; `openOrReset(path:)` shows what a cache can do then.
  init(path: String) throws {
    // TODO: Tasks 1 and 2. A new file gets your schema, and a file the first release
    // wrote opens with its rows kept (Docs/04-LocalPersistence.md).
    throw NotDoneYet(
      "Task 1", in: "Docs/04-LocalPersistence.md",
      "init(path:) should give the file your schema, at its current version")
  }

  func products() async throws -> [Product] {
    // TODO: Task 5. Every stored product, newest first (Docs/04-LocalPersistence.md).
    throw NotDoneYet("Task 5", in: "Docs/04-LocalPersistence.md", "products() should read every product, newest first")
  }

  func product(id: Int) async throws -> Product? {
    // TODO: Task 5. The stored product with this id, or nil (Docs/04-LocalPersistence.md).
    throw NotDoneYet("Task 5", in: "Docs/04-LocalPersistence.md", "product(id:) should read one product or return nil")
  }

  /// Stores every product, replacing a stored one with the same id: all of
  /// them, or, when one fails, none.
  ///
  /// - Throws: `LocalDataSourceError.unsavable` for a product the store refuses
  ///   before writing it, such as a NaN price; `SQLiteError` for a row SQLite refuses.
  func save(_ products: [Product]) async throws {
    // TODO: Task 4. Every product kept exactly as given, all or nothing (Docs/04-LocalPersistence.md).
    throw NotDoneYet("Task 4", in: "Docs/04-LocalPersistence.md", "save(_:) should store every product, or none")
  }
}
