import CourseFixtures
import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

let guide = StageGuide(
  doc: "Docs/04-LocalPersistence.md",
  tasks: [
    1: "Create the table",
    2: "Migrate to version 2",
    3: "Map rows to products and back",
    4: "Save all or nothing",
    5: "Read newest first",
  ]
)

/// The 194 real records as domain products, through stage 02's finished DTO mapping.
let realProductsResult = Result {
  try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
}

/// The 194 real records; stage 02's mapping is finished code here, so this throws only if it was edited.
func realProducts() throws -> [Product] { try realProductsResult.get() }

/// Opens a data source, or stops the test with one issue naming the unfinished
/// migration: Task 1, or Task 2 when only version 2 is missing.
func openDatabase(
  _ path: String = ":memory:", sourceLocation: SourceLocation = #_sourceLocation
) async throws -> SQLiteProductLocalDataSource {
  try await guide.attempt(
    1, "SQLiteProductLocalDataSource(path: \"\(path)\") must open and migrate before anything else",
    sourceLocation: sourceLocation
  ) { try SQLiteProductLocalDataSource(path: path) }
}

/// Saves through the data source, or stops the test with one issue naming Task 4
/// (or the unfinished task whose stub threw): a `SQLiteError` from `save(_:)` is Task 4's.
func save(
  _ products: [Product], to local: SQLiteProductLocalDataSource, _ what: String,
  sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  try await guide.attempt(4, what, sourceLocation: sourceLocation) { try await local.save(products) }
}

/// Reads every product through the data source, or stops the test naming Task 5.
func readAll(
  _ local: SQLiteProductLocalDataSource, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) async throws -> [Product] {
  try await guide.attempt(5, what, sourceLocation: sourceLocation) { try await local.products() }
}

/// The rows of the file at `path` as `ProductRow` reads them, by id, through a
/// connection of the test's own: what `save(_:)` wrote, whatever `products()` does.
func storedProducts(at path: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Product] {
  let readRow: (SQLiteStatement) throws -> ProductRow = ProductRow.init(statement:)
  return try await guide.attempt(
    3, "the saved rows should read back through ProductRow(statement:) on a second connection",
    sourceLocation: sourceLocation
  ) {
    try SQLiteConnection(path: path).prepare("SELECT \(ProductRow.columns) FROM products ORDER BY id")
      .query { try readRow($0) }.map { try $0.toDomain() }
  }
}

/// Whether your migrations give a table that refuses a row with stock -1 (Task 1's CHECK).
func tableRefusesANegativeStock() -> Bool {
  let outcome = Result {
    let database = try SQLiteConnection(path: ":memory:")
    try database.migrate(SQLiteProductLocalDataSource.migrations)
    try database.prepare(
      """
      INSERT INTO products (id, title, description, category, price, discount_percentage, rating, stock, thumbnail, updated_at)
      VALUES (1, 'Lamp', '', 'test', '1', 0, 0, -1, NULL, 0)
      """
    ).run()
  }
  return isConstraintFailure(outcome.failure)
}

/// The comment for a save of a product with stock -1 that did not fail with
/// SQLITE_CONSTRAINT: Task 4's when the table has the CHECK, so the error was
/// swallowed; Task 1's when the table lacks it.
func negativeStockComment(_ outcome: Result<Void, any Error>) -> Comment {
  let got = outcome.map { _ in "no error" }.described
  guard tableRefusesANegativeStock() else {
    return guide.task(
      1, "a product with stock -1 must break the table's CHECK (stock >= 0): expected SQLITE_CONSTRAINT, got \(got)",
      blaming: outcome.failure)
  }
  let swallowed =
    outcome.failure == nil ? ": the table refuses stock -1, so is an error swallowed (try?) in the loop?" : ""
  return guide.task(
    4, "save(_:) should throw the SQLiteError (SQLITE_CONSTRAINT) of a product with stock -1, got \(got)\(swallowed)",
    blaming: outcome.failure)
}

/// Whether `error` is SQLite's constraint failure (a CHECK, NOT NULL or UNIQUE that said no).
func isConstraintFailure(_ error: (any Error)?) -> Bool {
  (error as? SQLiteError)?.code == .constraint
}

/// The order `products()` promises: newest `updatedAt` first, then by id.
func newestFirst(_ products: [Product]) -> [Product] {
  products.sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id < $1.id }
}

/// A database file in the temporary folder, removed with its WAL files and any
/// `.unreadable` copy `openOrReset(path:)` made, when the value goes away.
struct TemporaryDatabase: ~Copyable {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage04-\(UUID().uuidString).sqlite").path

  deinit {
    SQLiteConnection.removeDatabase(atPath: path)
    SQLiteConnection.removeDatabase(atPath: path + ".unreadable")
  }
}

extension Product {
  static func sample(
    id: Int, title: String = "Sample", stock: Int = 1, updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062)
  ) -> Product {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: stock, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}
