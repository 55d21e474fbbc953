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
let realProducts: [Product] = {
  do {
    return try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
  } catch {
    preconditionFailure("the fixture records must map; stage 02's mapping is finished code here: \(error)")
  }
}()

/// Opens a data source, or fails the test with what went wrong: most often an unfinished migration.
func openDatabase(_ path: String = ":memory:") throws -> SQLiteProductLocalDataSource {
  let opened = Result { try SQLiteProductLocalDataSource(path: path) }
  return try #require(
    try? opened.get(),
    guide.task(
      1, "SQLiteProductLocalDataSource(path: \"\(path)\") must open and migrate before anything else, got \(opened)")
  )
}

/// The order `products()` promises: newest `updatedAt` first, then by id.
func newestFirst(_ products: [Product]) -> [Product] {
  products.sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id < $1.id }
}

/// A database file in the temporary folder, removed with its WAL files when the value goes away.
struct TemporaryDatabase: ~Copyable {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage04-\(UUID().uuidString).sqlite").path

  deinit { SQLiteConnection.removeDatabase(atPath: path) }
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
