import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Finished code: migration 4 rebuilds the cached list's table so that a product
/// in a cached list can be deleted, on a database that stage 05's migration 3
/// made, upgraded in place.
@Suite(.timeLimit(.minutes(1)))
struct MigrationTests {
  @Test func aDatabaseUpgradedInPlaceCanDeleteACachedProduct() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString).sqlite")
    defer { SQLiteConnection.removeDatabase(atPath: file.path) }
    let list = Array(firstPage.prefix(4))
    // A device that ran stage 05: the schema of migrations 1–3, and a cached list in it.
    let stage05 = Result {
      let database = try SQLiteConnection(path: file.path)
      try database.migrate(Array(SQLiteProductLocalDataSource.migrations.prefix(3)))
      try database.execute(
        "INSERT INTO cached_lists (name, fetched_at) VALUES ('\(SQLiteProductLocalDataSource.firstPage)', 0)")
      for (position, product) in list.enumerated() {
        try database.prepare(SQLiteProductLocalDataSource.upsert).run(ProductRow(product).values)
        try database.prepare("INSERT INTO cached_list_items (list_name, position, product_id) VALUES (?, ?, ?)")
          .run([
            .text(SQLiteProductLocalDataSource.firstPage), .integer(Int64(position)), .integer(Int64(product.id)),
          ])
      }
    }
    try #require((try? stage05.get()) != nil, "a stage 05 database should be written, got \(stage05)")
    // The same file opened by this stage's store, which runs migration 4, then a product deleted.
    let upgraded = await Result { () async throws -> [Int]? in
      let store = try SQLiteProductLocalDataSource(path: file.path)
      try await store.deleteProduct(id: list[1].id)
      return try await store.cachedList()?.value.map(\.id)
    }
    let expected = list.map(\.id).filter { $0 != list[1].id }
    #expect(
      (try? upgraded.get()) == expected,
      guide.task(
        4,
        "finished code, migration 4: a stage 05 database upgraded in place deletes product \(list[1].id) of its cached list \(list.map(\.id)), and the list keeps \(expected) in order; got \(upgraded) (migration 3's product_id has no ON DELETE: rebuild the table)",
        blaming: upgraded))
  }
}

extension SQLiteProductLocalDataSource {
  /// A delete as stage 07's store makes it, for the test: on the actor, in its connection.
  fileprivate func deleteProduct(id: Int) throws {
    try database.prepare("DELETE FROM products WHERE id = ?").run([.integer(Int64(id))])
  }
}
