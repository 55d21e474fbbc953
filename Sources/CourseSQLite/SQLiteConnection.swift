import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// One open SQLite database. It owns the C handle and closes it when it goes away.
///
/// A connection is not `Sendable`: use it from one place at a time, such as the
/// actor that owns it. It is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does not
/// lock around each call: that one owner is what keeps it safe. Every result code
/// passes through one check that throws `SQLiteError` with the code, SQLite's
/// message and the SQL.
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
  /// Files use write-ahead logging with `synchronous = NORMAL` and wait up to
  /// `busyTimeout` for a lock another connection holds. The file is read before this returns, so a file
  /// that is not a database, or whose schema is damaged, fails here and not at
  /// the first query.
  /// - Throws: `SQLiteError` whose message ends with the path: `.notADatabase`
  ///   for a file that is not SQLite, `.corrupt` for a damaged one, `.cantOpen`
  ///   for a path that cannot be opened.
  public init(path: String, busyTimeout: Duration = .seconds(5)) throws {
    var handle: OpaquePointer?
    let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
    let code = sqlite3_open_v2(path, &handle, flags, nil)
    guard let handle else {
      throw SQLiteError(resultCode: code, message: "SQLite could not allocate a connection: \(path)", sql: nil)
    }
    guard code == SQLITE_OK else {
      let error = SQLiteError(
        resultCode: sqlite3_extended_errcode(handle), message: "\(String(cString: sqlite3_errmsg(handle))): \(path)",
        sql: nil)
      sqlite3_close_v2(handle)
      throw error
    }
    self.handle = handle
    self.path = path
    sqlite3_extended_result_codes(handle, 1)
    let milliseconds =
      busyTimeout.components.seconds * 1_000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
    sqlite3_busy_timeout(handle, Int32(clamping: milliseconds))
    do {
      // Reads the header and parses the schema: random bytes and damaged files fail here.
      try prepare("SELECT count(*) FROM sqlite_master").run()
      if path != ":memory:" { try enableWriteAheadLogging(within: busyTimeout) }
      try execute("PRAGMA foreign_keys = ON")
    } catch let error as SQLiteError {
      throw SQLiteError(
        code: error.code, extendedCode: error.extendedCode, message: "\(error.message): \(path)", sql: error.sql)
    }
  }

  deinit {
    sqlite3_close_v2(handle)
  }

  /// Runs one or more SQL statements, separated by `;`, that return no rows the caller needs.
  ///
  /// This is the one call that takes several statements, for migrations and
  /// schema scripts; it binds no values, so never build its SQL from data.
  /// - Throws: `SQLiteError` naming the SQL.
  public func execute(_ sql: String) throws {
    try refuseNUL(in: sql)
    SQLiteMainActorWatch.note(sql, path: path)
    var message: UnsafeMutablePointer<CChar>?
    let code = sqlite3_exec(handle, sql, nil, nil, &message)
    defer { sqlite3_free(message) }
    guard code == SQLITE_OK else {
      let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
      throw SQLiteError(resultCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
    }
  }

  /// Compiles one statement, to run once or many times with different bindings.
  ///
  /// Only one: SQL that goes on after the first statement (`SELECT 1; DROP TABLE t`)
  /// is refused rather than silently cut short. Use `execute(_:)` for several.
  /// - Throws: `SQLiteError` naming the SQL: `.error` for a syntax error or an
  ///   unknown table, `.misuse` for more than one statement or none.
  public func prepare(_ sql: String) throws -> SQLiteStatement {
    try refuseNUL(in: sql)
    SQLiteMainActorWatch.note(sql, path: path)
    var statement: OpaquePointer?
    // Explicit byte counts: the terminator is included, which spares SQLite a copy.
    let rest: String = try sql.utf8CString.withUnsafeBufferPointer { text in
      guard let start = text.baseAddress else { return "" }
      var tail: UnsafePointer<CChar>?
      try check(sqlite3_prepare_v2(handle, start, Int32(text.count), &statement, &tail), sql: sql)
      return tail.map { String(cString: $0) } ?? ""
    }
    guard let statement else {
      throw SQLiteError(code: .misuse, message: "no statement in the SQL", sql: sql)
    }
    let compiled = SQLiteStatement(handle: statement, connection: self, sql: sql)
    guard isEmptyOfStatements(rest) else {
      let more = rest.trimmingCharacters(in: .whitespacesAndNewlines)
      throw SQLiteError(
        code: .misuse,
        message: "prepare(_:) compiles one statement, but the SQL goes on (\(more)); use execute(_:) for several",
        sql: sql)
    }
    return compiled
  }

  /// Runs `body` in one transaction: commits when it returns, rolls back when it throws.
  ///
  /// The transaction is `BEGIN IMMEDIATE`: it takes the write lock at once, so
  /// what `body` reads cannot change under it before it writes.
  /// Transactions do not nest: calling this inside `body` throws `SQLiteError`
  /// (`.misuse`) rather than crashing, so a mistake fails one test, not the run.
  /// - Throws: What `body` throws, after the rollback, or `SQLiteError` from `BEGIN`/`COMMIT`.
  public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
    guard sqlite3_get_autocommit(handle) != 0 else {
      throw SQLiteError(code: .misuse, message: "transaction() does not nest: a transaction is already open")
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
      throw SQLiteError(resultCode: code, message: String(cString: sqlite3_errmsg(handle)), sql: sql)
    }
  }

  /// Whether `sql` holds nothing to run: only spaces, semicolons and comments, as SQLite itself parses them.
  private func isEmptyOfStatements(_ sql: String) -> Bool {
    sql.withCString { start in
      var position = start
      while position.pointee != 0 {
        var statement: OpaquePointer?
        var tail: UnsafePointer<CChar>?
        let code = sqlite3_prepare_v2(handle, position, -1, &statement, &tail)
        sqlite3_finalize(statement)
        guard code == SQLITE_OK, statement == nil else { return false }
        guard let tail, tail > position else { return true }
        position = tail
      }
      return true
    }
  }

  /// SQLite reads SQL as a C string: a NUL would end it early and drop the rest unseen.
  private func refuseNUL(in sql: String) throws {
    // C's strlen stops at the first NUL: shorter than the UTF-8 count means one is inside.
    // (Faster than searching the UTF-8 view, which a debug build does byte by byte in Swift.)
    guard sql.withCString({ strlen($0) }) == sql.utf8.count else {
      throw SQLiteError(
        code: .misuse, message: "the SQL contains a NUL character; bind text as a value instead", sql: sql)
    }
  }

  /// Switches a file to write-ahead logging, synced at checkpoints rather than at every commit.
  ///
  /// With WAL, `synchronous = NORMAL` keeps the file consistent whatever
  /// happens, and loses no committed transaction when the app is killed or
  /// crashes; only a power loss or an OS crash may roll back the last commits
  /// (SQLite's "WAL mode is always consistent with synchronous=NORMAL"). FULL,
  /// SQLite's default, also survives those, at an fsync per commit: half of
  /// stage 07's time for 1,000 edits, each its own commit. PowerSync, an
  /// offline-first sync library, makes the same choice.
  ///
  /// Two connections that switch the same new file at the same moment can each
  /// hold the lock the other needs; SQLite then answers `SQLITE_BUSY` at once
  /// rather than wait in the busy handler. The loser retries, within the busy
  /// timeout, and finds the file already in WAL mode.
  private func enableWriteAheadLogging(within timeout: Duration) throws {
    let deadline = ContinuousClock.now + timeout
    while true {
      do {
        try execute("PRAGMA journal_mode = WAL")
        try execute("PRAGMA synchronous = NORMAL")
        return
      } catch let error as SQLiteError where error.code == .busy && ContinuousClock.now < deadline {
        sqlite3_sleep(1)
      }
    }
  }
}

/// The handle is a C pointer used from one place at a time; it must not cross
/// isolation domains, so this conformance is explicitly unavailable.
@available(*, unavailable)
extension SQLiteConnection: Sendable {}
