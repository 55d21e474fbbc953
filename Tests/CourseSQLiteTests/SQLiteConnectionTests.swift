import CourseSQLite
import Foundation
import Testing

struct SQLiteConnectionTests {
  func makeTable() throws -> SQLiteConnection {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, i INTEGER, r REAL, s TEXT, b BLOB, n)")
    return db
  }

  @Test(arguments: [
    SQLiteValue.integer(Int64.max), .integer(Int64.min), .real(9.99), .real(-0.5),
    .text("'; DROP TABLE t; --"), .text("Émoji 🛒 and \"quotes\""), .text(String(repeating: "long ", count: 20_000)),
    .text("before\0after"), .text(""), .text("\0"),
    .blob(Data([0, 1, 2, 255])), .blob(Data()), .null,
  ])
  func bindsAndReadsEveryType(value: SQLiteValue) throws {
    let db = try makeTable()
    try db.prepare("INSERT INTO t (id, n) VALUES (1, ?)").run([value])
    let read = try db.prepare("SELECT n FROM t WHERE id = 1").query { $0.value(at: 0) }
    #expect(read == [value], "\(value) should come back unchanged")
  }

  @Test func readsTypedColumns() throws {
    let db = try makeTable()
    try db.prepare("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)").run([1, 42, 2.5, "text", .blob(Data([7])), nil])
    let statement = try db.prepare("SELECT i, r, s, b, n FROM t")
    #expect(try statement.step())
    #expect(statement.int64(at: 0) == 42)
    #expect(statement.double(at: 1) == 2.5)
    #expect(statement.text(at: 2) == "text")
    #expect(statement.blob(at: 3) == Data([7]))
    #expect(statement.isNull(at: 4) && statement.text(at: 4) == nil)
    #expect(try !statement.step(), "one row only")
  }

  @Test func reusesOneStatementForManyRows() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO t (id, s) VALUES (?, ?)")
    for id in 1...100 { try insert.run([.integer(Int64(id)), .text("row \(id)")]) }
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [100])
  }

  @Test func commitsWhenTheBodyReturns() throws {
    let db = try makeTable()
    try db.transaction { try db.execute("INSERT INTO t (id) VALUES (1)") }
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [1])
  }

  @Test func rollsBackWhenTheBodyThrows() throws {
    struct Boom: Error {}
    let db = try makeTable()
    #expect(throws: Boom.self) {
      try db.transaction {
        try db.execute("INSERT INTO t (id) VALUES (1)")
        throw Boom()
      }
    }
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [0], "the insert must be rolled back")
    try db.transaction { try db.execute("INSERT INTO t (id) VALUES (2)") }
  }

  @Test func aNestedTransactionIsAnErrorNotACrash() throws {
    let db = try makeTable()
    let error = try thrownSQLiteError {
      try db.transaction { try db.transaction { try db.execute("INSERT INTO t (id) VALUES (1)") } }
    }
    #expect(error.message.contains("does not nest"))
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [0])
  }

  @Test func theWrongNumberOfValuesIsAnErrorNotACrash() throws {
    let db = try makeTable()
    let error = try thrownSQLiteError {
      try db.prepare("INSERT INTO t (id, s) VALUES (?, ?)").run([1])
    }
    #expect(error.message == "the statement takes 2 values, got 1")
    #expect(error.sql == "INSERT INTO t (id, s) VALUES (?, ?)")
  }

  @Test func appliesMigrationsOnceAndInOrder() throws {
    let db = try SQLiteConnection(path: ":memory:")
    let migrations = [
      SQLiteMigration(version: 1, sql: "CREATE TABLE log (step TEXT)"),
      SQLiteMigration(version: 2, sql: "INSERT INTO log VALUES ('two')"),
      SQLiteMigration(version: 3, sql: "INSERT INTO log VALUES ('three')"),
    ]
    #expect(try db.migrate(Array(migrations.prefix(2))) == [1, 2])
    #expect(try db.migrate(migrations) == [3])
    #expect(try db.migrate(migrations) == [], "a current database applies nothing")
    #expect(try db.userVersion() == 3)
    #expect(try db.prepare("SELECT step FROM log").query { $0.text(at: 0) } == ["two", "three"])
  }

  @Test func aFailingMigrationLeavesTheLastGoodVersion() throws {
    let db = try SQLiteConnection(path: ":memory:")
    let migrations = [
      SQLiteMigration(version: 1, sql: "CREATE TABLE a (x)"),
      SQLiteMigration(version: 2, sql: "CREATE TABLE b (x); INSERT INTO missing VALUES (1)"),
    ]
    #expect(throws: SQLiteError.self) { try db.migrate(migrations) }
    #expect(try db.userVersion() == 1)
    #expect(throws: SQLiteError.self, "table b must have been rolled back") { try db.execute("SELECT * FROM b") }
  }

  @Test func anErrorNamesTheFailingSQL() throws {
    let db = try makeTable()
    let error = try thrownSQLiteError { try db.prepare("SELECT nope FROM t") }
    #expect(error.sql == "SELECT nope FROM t")
    #expect(error.message.contains("no such column"))
    #expect(error.code == .error)
    #expect(error.description.hasPrefix("SQLite error SQLITE_ERROR ("), "got \(error.description)")
    #expect(error.description.hasSuffix("(SQL: SELECT nope FROM t)"), "got \(error.description)")
  }

  @Test func aConstraintFailureCarriesItsCode() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO t (id) VALUES (?)")
    try insert.run([1])
    let error = try thrownSQLiteError { try insert.run([1]) }
    #expect(error.code == .constraint, "got \(error)")
    #expect(error.message.contains("UNIQUE constraint failed"), "got \(error)")
    #expect(error.description.hasPrefix("SQLite error SQLITE_CONSTRAINT ("), "got \(error.description)")
  }

  @Test func theExtendedCodeTellsConstraintsApart() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, n INTEGER CHECK (n >= 0))")
    try db.prepare("INSERT INTO t VALUES (1, 0)").run()
    let unique = try thrownSQLiteError { try db.prepare("INSERT INTO t VALUES (1, 0)").run() }
    let check = try thrownSQLiteError { try db.prepare("INSERT INTO t VALUES (2, -1)").run() }
    #expect(unique.code == .constraint && check.code == .constraint, "both are constraint failures")
    #expect(
      unique.extendedCode != check.extendedCode, "a PRIMARY KEY and a CHECK failure have different extended codes")
    #expect(
      check.extendedCode != SQLiteResultCode.constraint.rawValue, "SQLite gave the CHECK failure an extended code")
  }

  @Test(arguments: [
    (SQLiteResultCode.error, "SQLITE_ERROR"), (.busy, "SQLITE_BUSY"), (.locked, "SQLITE_LOCKED"),
    (.readonly, "SQLITE_READONLY"), (.ioerr, "SQLITE_IOERR"), (.corrupt, "SQLITE_CORRUPT"), (.full, "SQLITE_FULL"),
    (.cantOpen, "SQLITE_CANTOPEN"), (.constraint, "SQLITE_CONSTRAINT"), (.mismatch, "SQLITE_MISMATCH"),
    (.misuse, "SQLITE_MISUSE"), (.range, "SQLITE_RANGE"), (.notADatabase, "SQLITE_NOTADB"),
  ])
  func resultCodesGoByTheirCNames(code: SQLiteResultCode, name: String) {
    #expect(code.description == name)
  }

  @Test func aFileOfRandomBytesIsAClearError() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(UUID().uuidString).sqlite")
    defer { try? FileManager.default.removeItem(at: url) }
    var generator = SystemRandomNumberGenerator()
    try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
    let error = try thrownSQLiteError { try SQLiteConnection(path: url.path) }
    #expect(error.code == .notADatabase, "got \(error)")
    #expect(error.message.contains("not a database") && error.message.hasSuffix(url.path), "got \(error)")
  }

  @Test func keepsDataInAFileAcrossConnections() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("keep-\(UUID().uuidString).sqlite")
    defer { SQLiteConnection.removeDatabase(atPath: url.path) }
    do {
      let db = try SQLiteConnection(path: url.path)
      try db.execute("CREATE TABLE t (x TEXT); INSERT INTO t VALUES ('kept')")
    }
    let reopened = try SQLiteConnection(path: url.path)
    #expect(try reopened.prepare("SELECT x FROM t").query { $0.text(at: 0) } == ["kept"])
  }

  /// WAL, synced at checkpoints: every connection to a file, since `synchronous` is not stored in it.
  @Test func aFileIsInWriteAheadLoggingSyncedAtCheckpoints() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite")
    defer { SQLiteConnection.removeDatabase(atPath: url.path) }
    for _ in 1...2 {
      let db = try SQLiteConnection(path: url.path)
      #expect(try db.prepare("PRAGMA journal_mode").query { $0.text(at: 0) } == ["wal"])
      #expect(try db.prepare("PRAGMA synchronous").query { $0.int64(at: 0) } == [1], "1 is NORMAL")
    }
  }
}

struct SQLiteStatementTextTests {
  @Test(arguments: ["SELECT 1; DROP TABLE t", "SELECT 1; SELECT 2", "SELECT 1; nonsense"])
  func prepareRefusesASecondStatement(sql: String) throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (x)")
    let error = try thrownSQLiteError { try db.prepare(sql) }
    #expect(error.code == .misuse, "got \(error)")
    #expect(error.message.contains("execute(_:)"), "the error should point to execute(_:), got \(error.message)")
    #expect(try db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 't'").query { $0.int64(at: 0) } == [1])
  }

  @Test(arguments: ["SELECT 1", "SELECT 1;", "SELECT 1;  \n", "SELECT 1; -- done", "SELECT 1; /* done */ ;"])
  func prepareAcceptsOneStatementWithTrailingSpaceOrComments(sql: String) throws {
    let db = try SQLiteConnection(path: ":memory:")
    #expect(try db.prepare(sql).query { $0.int64(at: 0) } == [1])
  }

  @Test func executeStillRunsSeveralStatements() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (x); INSERT INTO t VALUES (1); INSERT INTO t VALUES (2);")
    #expect(try db.prepare("SELECT x FROM t ORDER BY x").query { $0.int64(at: 0) } == [1, 2])
  }

  @Test func sqlWithANULIsRefusedNotCutShort() throws {
    let db = try SQLiteConnection(path: ":memory:")
    try db.execute("CREATE TABLE t (x)")
    let prepared = try thrownSQLiteError { try db.prepare("SELECT 1\0; DROP TABLE t") }
    let executed = try thrownSQLiteError { try db.execute("SELECT 1;\0 DROP TABLE t") }
    #expect(prepared.code == .misuse && executed.code == .misuse, "got \(prepared) and \(executed)")
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [0], "table t must still exist")
  }
}
