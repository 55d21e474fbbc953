import Foundation
import Testing

@testable import CourseSQLite

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// Files that are not what they claim, and how a connection holds its file.
struct SQLiteFileTests {
  /// A real database whose schema page has been overwritten, as a bad disk or
  /// a half-copied file leaves it: the connection must refuse it at open, not
  /// at the first query.
  @Test func aDamagedDatabaseFailsAtOpenWithOneNamedError() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("damaged-\(UUID().uuidString).sqlite").path
    defer { SQLiteConnection.removeDatabase(atPath: path) }
    do {
      let db = try SQLiteConnection(path: path)
      try db.execute("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('kept')")
    }
    let file = try #require(FileHandle(forUpdatingAtPath: path))
    // Page 1 after the 100-byte file header holds the schema's b-tree page.
    try file.seek(toOffset: 100)
    try file.write(contentsOf: Data(repeating: 0xA5, count: 200))
    try file.close()
    let error = try thrownSQLiteError { try SQLiteConnection(path: path) }
    #expect(error.code == .corrupt, "got \(error)")
    #expect(error.message.hasSuffix(path), "the error should name the file, got \(error.message)")
  }

  @Test func aPathThatCannotBeOpenedIsANamedError() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("missing-\(UUID().uuidString)/db.sqlite")
      .path
    let error = try thrownSQLiteError { try SQLiteConnection(path: path) }
    #expect(error.code == .cantOpen, "got \(error)")
    #expect(error.message.hasSuffix(path), "got \(error.message)")
  }

  /// One actor owns each connection, so SQLite need not lock around every call.
  @Test(arguments: [":memory:", "file"])
  func opensWithoutSQLitesPerConnectionMutex(kind: String) throws {
    let path =
      kind == "file"
      ? FileManager.default.temporaryDirectory.appendingPathComponent("nomutex-\(UUID().uuidString).sqlite").path
      : kind
    defer { if kind == "file" { SQLiteConnection.removeDatabase(atPath: path) } }
    let db = try SQLiteConnection(path: path)
    #expect(sqlite3_db_mutex(db.handle) == nil, "SQLITE_OPEN_NOMUTEX gives the connection no mutex")
  }
}
