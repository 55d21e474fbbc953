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
    .blob(Data([0, 1, 2, 255])), .blob(Data()), .null,
  ])
  func bindsAndReadsEveryType(value: SQLiteValue) throws {
    let db = try makeTable()
    try db.prepare("INSERT INTO t (id, n) VALUES (1, ?)").run([value])
    let read = try db.prepare("SELECT n FROM t WHERE id = 1").query { $0.value(at: 0) }
    #expect(read == [value])
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
    let error = try #require(throws: SQLiteError.self) {
      try db.transaction { try db.transaction { try db.execute("INSERT INTO t (id) VALUES (1)") } }
    }
    #expect(error.message.contains("does not nest"))
    #expect(try db.prepare("SELECT count(*) FROM t").query { $0.int64(at: 0) } == [0])
  }

  @Test func theWrongNumberOfValuesIsAnErrorNotACrash() throws {
    let db = try makeTable()
    let error = try #require(throws: SQLiteError.self) {
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
    let error = try #require(throws: SQLiteError.self) { try db.prepare("SELECT nope FROM t") }
    #expect(error.sql == "SELECT nope FROM t")
    #expect(error.message.contains("no such column"))
    #expect(error.primaryCode == 1)
    #expect(error.description.contains("SELECT nope FROM t"))
  }

  @Test func aConstraintFailureCarriesItsCode() throws {
    let db = try makeTable()
    let insert = try db.prepare("INSERT INTO t (id) VALUES (?)")
    try insert.run([1])
    let error = try #require(throws: SQLiteError.self) { try insert.run([1]) }
    #expect(error.primaryCode == 19, "SQLITE_CONSTRAINT")
  }

  @Test func aFileOfRandomBytesIsAClearError() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("random-\(UUID().uuidString).sqlite")
    defer { try? FileManager.default.removeItem(at: url) }
    var generator = SystemRandomNumberGenerator()
    try Data((0..<8192).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: url)
    let error = try #require(throws: SQLiteError.self) { try SQLiteConnection(path: url.path) }
    #expect(error.primaryCode == 26, "SQLITE_NOTADB")
    #expect(error.message.contains("not a database"))
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
}
