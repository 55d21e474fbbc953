/// A failed SQLite call: its result code, SQLite's own message, and the SQL that ran.
///
/// Compare codes by name: `error.code == .constraint`, `error.code == .notADatabase`.
/// `description` reads, for example:
///
/// ```text
/// SQLite error SQLITE_CONSTRAINT (19, extended 275): CHECK constraint failed: stock >= 0 (SQL: INSERT …)
/// ```
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The primary result code, such as `.constraint` for every kind of constraint failure.
  public let code: SQLiteResultCode
  /// The extended result code, which tells the kinds apart: 275 for a `CHECK`,
  /// 1555 for a `PRIMARY KEY`. The same number as `code` when SQLite gave no detail.
  public let extendedCode: Int32
  /// What SQLite said, such as "file is not a database", or what the wrapper refused.
  public let message: String
  /// The statement that failed, when there was one.
  public let sql: String?

  /// Makes an error from its parts.
  ///
  /// - Parameters:
  ///   - code: The primary result code.
  ///   - extendedCode: The extended code; `nil` uses the primary code's number.
  ///   - message: What went wrong.
  ///   - sql: The statement that failed, if any.
  public init(code: SQLiteResultCode, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
    self.code = code
    self.extendedCode = extendedCode ?? code.rawValue
    self.message = message
    self.sql = sql
  }

  /// Makes an error from a result code as SQLite returned it, primary or extended.
  init(resultCode: Int32, message: String, sql: String?) {
    self.init(code: SQLiteResultCode(rawValue: resultCode & 0xFF), extendedCode: resultCode, message: message, sql: sql)
  }

  /// The error `migrate(_:)` throws for a database that a newer version of the
  /// app has already migrated past the migrations this code knows.
  ///
  /// Opening such a file would read and write a schema this code was not written
  /// for, so the wrapper refuses it: compare with this value to tell the case apart.
  /// - Parameters:
  ///   - version: The `user_version` the file records.
  ///   - lastKnown: The last migration's version.
  public static func newerSchema(version: Int, lastKnown: Int) -> SQLiteError {
    SQLiteError(
      code: .error,
      message: "the database is at schema version \(version), newer than the last migration this code knows "
        + "(\(lastKnown)); it was written by a newer version of the app")
  }

  /// The error `migrate(_:)` throws for a file whose `user_version` is negative:
  /// no migration ever writes one, so the header is damaged (or the file was
  /// written by something that is not this app).
  ///
  /// - Parameter version: The `user_version` the file records.
  public static func damagedSchemaVersion(_ version: Int) -> SQLiteError {
    SQLiteError(
      code: .corrupt,
      message: "the database records schema version \(version), which no migration writes; "
        + "its header is damaged or another program wrote it")
  }

  public var description: String {
    "SQLite error \(code) (\(code.rawValue), extended \(extendedCode)): \(message)"
      + (sql.map { " (SQL: \($0))" } ?? "")
  }
}
