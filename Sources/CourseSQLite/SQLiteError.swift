/// A failed SQLite call: its result code, SQLite's own message, and the SQL that ran.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The primary or extended result code, such as 19 (`SQLITE_CONSTRAINT`) or 26 (`SQLITE_NOTADB`).
  public let code: Int32
  /// What `sqlite3_errmsg` said, such as "file is not a database".
  public let message: String
  /// The statement that failed, when there was one.
  public let sql: String?

  /// Makes an error from its parts.
  public init(code: Int32, message: String, sql: String? = nil) {
    self.code = code
    self.message = message
    self.sql = sql
  }

  /// The primary result code, without the extended bits: 19 for every constraint failure.
  public var primaryCode: Int32 { code & 0xFF }

  public var description: String {
    "SQLite error \(code): \(message)" + (sql.map { " (SQL: \($0))" } ?? "")
  }
}
