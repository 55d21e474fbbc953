import CourseSQLite
import Foundation
import Synchronization
import Testing

struct SQLiteMigrationTests {
  let migrations = [
    SQLiteMigration(version: 1, sql: "CREATE TABLE a (x)"),
    SQLiteMigration(version: 2, sql: "CREATE TABLE b (x)"),
  ]

  /// Before each migration read `user_version` under the write lock, two
  /// connections opening a new file together both ran migration 1 in almost
  /// every round ("table a already exists"), or failed to switch it to WAL.
  @Test func twoConnectionsOpeningANewFileTogetherMigrateItOnce() throws {
    let rounds = 40
    var failures: [String] = []
    var doubled: [String] = []
    for round in 0..<rounds {
      let path = temporaryPath("together-\(round)")
      defer { SQLiteConnection.removeDatabase(atPath: path) }
      let applied = Mutex<[Int]>([])
      let failed = Mutex<[String]>([])
      DispatchQueue.concurrentPerform(iterations: 2) { _ in
        do {
          let versions = try SQLiteConnection(path: path).migrate(migrations)
          applied.withLock { $0 += versions }
        } catch {
          failed.withLock { $0.append("\(error)") }
        }
      }
      failures += failed.withLock { $0 }
      let versions = applied.withLock { $0 }.sorted()
      if versions != [1, 2] { doubled.append("round \(round) applied \(versions)") }
    }
    #expect(failures.isEmpty, "\(failures.count) of \(2 * rounds) opens failed, first: \(failures.first ?? "")")
    #expect(
      doubled.isEmpty,
      "between them, the two connections must apply 1 and 2 once each; \(doubled.count) of \(rounds) rounds did not, first: \(doubled.first ?? "")"
    )
  }

  @Test func aDatabaseFromANewerAppIsRefused() throws {
    let path = temporaryPath("newer")
    defer { SQLiteConnection.removeDatabase(atPath: path) }
    try SQLiteConnection(path: path).migrate(migrations + [SQLiteMigration(version: 3, sql: "CREATE TABLE c (x)")])
    let db = try SQLiteConnection(path: path)
    let error = try thrownSQLiteError { try db.migrate(migrations) }
    #expect(error == .newerSchema(version: 3, lastKnown: 2), "got \(error)")
    #expect(error.description.contains("schema version 3, newer than the last migration this code knows (2)"))
    #expect(try db.userVersion() == 3, "the newer file must be left as it was")
  }

  @Test func migratingAnEmptyListIsANoOpButStillRefusesANewerFile() throws {
    let db = try SQLiteConnection(path: ":memory:")
    #expect(try db.migrate([]) == [])
    try db.execute("PRAGMA user_version = 1")
    #expect(throws: SQLiteError.newerSchema(version: 1, lastKnown: 0)) { try db.migrate([]) }
  }

  /// One damaged header byte can make `user_version` negative; every header value must be survivable.
  @Test(arguments: [-1, -2, Int(Int32.min)])
  func aNegativeSchemaVersionIsANamedErrorNotATrap(version: Int) throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("PRAGMA user_version = \(version)")
    let error = try thrownSQLiteError { try db.migrate(migrations) }
    #expect(error == .damagedSchemaVersion(version), "got \(error)")
    #expect(error.code == .corrupt, "a damaged header reads as a corrupt file, got \(error.code)")
    #expect(try db.userVersion() == version, "the damaged file must be left as it was")
  }

  @Test func anAbsurdSchemaVersionIsRefusedAsNewer() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("PRAGMA user_version = \(Int32.max)")
    let error = try thrownSQLiteError { try db.migrate(migrations) }
    #expect(error == .newerSchema(version: Int(Int32.max), lastKnown: 2), "got \(error)")
  }

  private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
  }
}
