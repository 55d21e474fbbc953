import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// One open SQLite database. It owns the C handle and closes it when it goes away.
///
/// A connection is not `Sendable`: use it from one place at a time, such as the
/// actor that owns it. Every result code passes through one check that throws
/// `SQLiteError` with the code, SQLite's message and the SQL.
///
/// ```swift
/// let db = try SQLiteConnection(path: ":memory:")
/// try db.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT)")
/// try db.transaction {
///   let insert = try db.prepare("INSERT INTO t (name) VALUES (?)")
///   for name in ["a", "b"] { try insert.run([.text(name)]) }
/// }
/// ```
public final class SQLiteConnection {
  let handle: OpaquePointer

  /// The path the connection was opened with, or `:memory:`.
  public let path: String

  /// Opens or creates the database at `path`; `":memory:"` makes a private in-memory one.
  ///
  /// Files use write-ahead logging and wait up to `busyTimeout` for a lock
  /// another connection holds.
  /// - Throws: `SQLiteError`, for example code 26 "file is not a database" for a
  ///   file that is not SQLite.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_FULLMUTEX
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard let handle else {
      throw SQLiteError(code: code, message: "out of memory opening \(path)")
    }
    guard code == SQLITE_OK else {
      let error = SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: nil)
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    if path != ":memory:" {
      let milliseconds =
        busyTimeout.components.seconds * 1_000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
      sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
      // The first statement reads the file, so a file that is not a database fails here.
      try execute("PRAGMA journal_mode = WAL")
    }
    try execute("PRAGMA foreign_keys = ON")
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements that return no rows the caller needs.
  ///
  /// - Throws: `SQLiteError` naming the SQL.
  public func execute(_ sql: String) throws {
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      throw SQLiteError(code: code, message: text, sql: sql)
    }
  }

  /// Compiles one statement, to run once or many times with different bindings.
  ///
  /// - Throws: `SQLiteError` naming the SQL, for a syntax error or an unknown table.
  public func prepare(_ sql: String) throws -> SQLiteStatement {
    var statement: OpaquePointer?
    try check(sqlite3_prepare_v2(handle, sql, -1, &statement, nil), sql: sql)
    guard let statement else {
      throw SQLiteError(code: SQLITE_MISUSE, message: "no statement in the SQL", sql: sql)
    }
    return SQLiteStatement(handle: statement, connection: self, sql: sql)
  }

  /// Runs `body` in one transaction: commits when it returns, rolls back when it throws.
  ///
  /// Transactions do not nest: calling this inside `body` throws `SQLiteError`
  /// (`SQLITE_MISUSE`) rather than crashing, so a mistake fails one test, not the run.
  /// - Throws: What `body` throws, after the rollback, or `SQLiteError` from `BEGIN`/`COMMIT`.
  public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
    guard sqlite3_get_autocommit(handle) != 0 else {
      throw SQLiteError(code: SQLITE_MISUSE, message: "transaction() does not nest: a transaction is already open")
    }
    try execute("BEGIN IMMEDIATE")
    do {
      let result = try body()
      try execute("COMMIT")
      return result
    } catch {
      // A failed COMMIT may already have rolled back; either way nothing of `body` stays.
      if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
      throw error
    }
  }

  /// The schema version the database records in `PRAGMA user_version`.
  public func userVersion() throws -> Int {
    let statement = try prepare("PRAGMA user_version")
    guard try statement.step() else { return 0 }
    return Int(statement.int64(at: 0))
  }

  /// Applies, in order and each in its own transaction, every migration whose
  /// version is above the database's `user_version`, then records the version.
  ///
  /// A migration that throws rolls back, leaving the database at the last version that succeeded.
  /// - Precondition: versions start at 1 and increase by one.
  /// - Returns: The versions applied now, empty when the database was current.
  @discardableResult
  public func migrate(_ migrations: [SQLiteMigration]) throws -> [Int] {
    precondition(
      migrations.map(\.version) == Array(stride(from: 1, through: migrations.count, by: 1)),
      "migration versions must be 1, 2, 3, … in order; got \(migrations.map(\.version))")
    let current = try userVersion()
    var applied: [Int] = []
    for migration in migrations where migration.version > current {
      try transaction {
        try migration.apply(self)
        try execute("PRAGMA user_version = \(migration.version)")
      }
      applied.append(migration.version)
    }
    return applied
  }

  /// Deletes a database file together with the write-ahead log and shared-memory
  /// files SQLite keeps beside it in WAL mode. Missing files are not an error.
  ///
  /// Close every connection to the file first.
  public static func removeDatabase(atPath path: String) {
    for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
  }

  /// How many rows the last INSERT, UPDATE or DELETE changed.
  public var changes: Int { Int(sqlite3_changes(handle)) }

  /// Throws `SQLiteError` unless `code` reports success.
  func check(_ code: Int32, sql: String?) throws {
    guard code == SQLITE_OK || code == SQLITE_ROW || code == SQLITE_DONE else {
      throw SQLiteError(code: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
  }
}

/// The handle is a C pointer used from one place at a time; it must not cross
/// isolation domains, so this conformance is explicitly unavailable.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}

/// One step of a schema's history, applied once, recorded in `PRAGMA user_version`.
public struct SQLiteMigration: Sendable {
  /// The version the database reaches after this migration: 1, 2, 3, …
  public let version: Int
  /// Changes the schema (and, if needed, the data) from `version - 1` to `version`.
  public let apply: @Sendable (SQLiteConnection) throws -> Void

  /// A migration that runs code, for changes SQL alone cannot make.
  public init(version: Int, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
    self.version = version
    self.apply = apply
  }

  /// A migration that runs SQL.
  public init(version: Int, sql: String) {
    self.init(version: version) { try $0.execute(sql) }
  }
}
