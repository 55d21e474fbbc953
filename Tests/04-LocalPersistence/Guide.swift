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
