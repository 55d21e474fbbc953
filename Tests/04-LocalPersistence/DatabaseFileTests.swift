import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

/// What only a file shows: data that outlives the connection, a migration of a
/// database that already holds data, and a file that is not a database at all.
struct DatabaseFileTests {
  @Test func keepsProductsAcrossClosingAndReopening() async throws {
    let file = TemporaryDatabase()
    let saved = await Result {
      let first = try SQLiteProductLocalDataSource(path: file.path)
      try await first.save(Array(realProducts.prefix(5)))
    }
    try #require((try? saved.get()) != nil, guide.task(4, "saving 5 products to a file should work, got \(saved)"))
    let reopened = await Result { try await SQLiteProductLocalDataSource(path: file.path).products() }
    #expect(
      (try? reopened.get()) == newestFirst(Array(realProducts.prefix(5))),
      guide.task(
        5, "a new data source on the same file should read the 5 saved products, got \(reopened.map { $0.map(\.id) })")
    )
  }

  @Test func migratesAVersion1FileAndKeepsItsData() async throws {
    let file = TemporaryDatabase()
    let version1 = Result {
      let database = try SQLiteConnection(path: file.path)
      try database.migrate(Array(SQLiteProductLocalDataSource.migrations.prefix(1)))
      let columns = try database.prepare("SELECT name FROM pragma_table_info('products')").query { $0.text(at: 0) }
      guard !columns.contains("brand") else {
        throw SQLiteError(code: .error, message: "version 1 already has a brand column; brand arrives in version 2")
      }
      try database.prepare(
        """
        INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at)
        VALUES (1, 'Kept across the migration', 'From version 1', 'legacy', '12.50', 5, 4.5, 3, NULL, 768000000)
        """
      ).run()
    }
    try #require(
      (try? version1.get()) != nil,
      guide.task(
        1,
        "version 1 must create products(id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at) as the doc specifies; inserting a version-1 row failed: \(version1)"
      )
    )
    let migrated = await Result {
      let local = try SQLiteProductLocalDataSource(path: file.path)
      let old = try await local.product(id: 1)
      var branded = Product.sample(id: 2)
      branded.brand = "New in version 2"
      try await local.save([branded])
      return (old, try await local.product(id: 2)?.brand)
    }
    let found = try? migrated.get()
    #expect(
      found?.0?.title == "Kept across the migration" && found?.0?.price == Decimal(string: "12.5")
        && found?.0?.brand == nil,
      guide.task(2, "the version-1 row should survive the migration with brand nil, got \(migrated)")
    )
    #expect(
      found?.1 == "New in version 2",
      guide.task(2, "after the migration a brand should be stored and read back, got \(migrated)"))
    let version = Result { try SQLiteConnection(path: file.path).userVersion() }
    #expect(
      (try? version.get()) == 2, guide.task(2, "the file should record user_version 2 after opening, got \(version)"))
  }

  @Test func migratesOnlyOnce() async throws {
    let file = TemporaryDatabase()
    let reopened = await Result {
      try await SQLiteProductLocalDataSource(path: file.path).save([.sample(id: 1)])
      return try await SQLiteProductLocalDataSource(path: file.path).products().map(\.id)
    }
    #expect(
      (try? reopened.get()) == [1],
      guide.task(
        2, "opening a current database must not run its migrations again (ALTER TABLE would fail), got \(reopened)")
    )
  }

  @Test func aFileOfRandomBytesIsAClearErrorNotACrash() throws {
    let file = TemporaryDatabase()
    var generator = SystemRandomNumberGenerator()
    try Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(
      to: URL(fileURLWithPath: file.path))
    let opened = Result { try SQLiteProductLocalDataSource(path: file.path) }
    let error = opened.failure as? SQLiteError
    #expect(
      error?.code == .notADatabase && error?.message.contains("not a database") == true,
      guide.task(1, "opening random bytes should throw SQLITE_NOTADB \"file is not a database\", got \(opened)")
    )
  }
}
