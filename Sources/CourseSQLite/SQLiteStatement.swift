import Foundation

#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A compiled statement. It is finalized when it goes away, on every path.
///
/// Reuse one statement for many rows: `run(_:)` resets it and binds the new values.
public final class SQLiteStatement {
  private let handle: OpaquePointer
  /// Kept so the connection outlives its statements.
  private let connection: SQLiteConnection
  /// The SQL the statement was compiled from.
  public let sql: String

  init(handle: OpaquePointer, connection: SQLiteConnection, sql: String) {
    self.handle = handle
    self.connection = connection
    self.sql = sql
  }

  deinit {
    sqlite3_finalize(handle)
  }

  /// Resets the statement and binds `values` to its `?` parameters, in order.
  ///
  /// Text and blobs are bound with their byte counts, so a NUL inside a string
  /// is stored, not taken for its end; SQLite copies them before this returns.
  /// - Throws: `SQLiteError` (`.range`) when `values` does not have one value per parameter.
  public func bind(_ values: [SQLiteValue]) throws {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    let expected = Int(sqlite3_bind_parameter_count(handle))
    guard values.count == expected else {
      throw SQLiteError(
        code: .range, message: "the statement takes \(expected) values, got \(values.count)", sql: sql)
    }
    for (offset, value) in values.enumerated() {
      let index = Int32(offset + 1)
      let code: Int32
      switch value {
      case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
      case .real(let number): code = sqlite3_bind_double(handle, index, number)
      // A nil pointer would bind NULL, and an empty buffer may have none.
      case .text(let text) where text.isEmpty: code = sqlite3_bind_text(handle, index, "", 0, transient)
      case .text(let text):
        var text = text
        code = text.withUTF8 { bytes in
          let start = UnsafeRawPointer(bytes.baseAddress)?.assumingMemoryBound(to: CChar.self)
          return sqlite3_bind_text64(handle, index, start, UInt64(bytes.count), transient, UInt8(SQLITE_UTF8))
        }
      case .blob(let data) where data.isEmpty: code = sqlite3_bind_zeroblob(handle, index, 0)
      case .blob(let data):
        code = data.withUnsafeBytes { bytes in
          sqlite3_bind_blob64(handle, index, bytes.baseAddress, UInt64(bytes.count), transient)
        }
      case .null: code = sqlite3_bind_null(handle, index)
      }
      try connection.check(code, sql: sql)
    }
  }

  /// Advances to the next row.
  ///
  /// - Returns: `true` when a row is ready to read, `false` when the statement is done.
  /// - Throws: `SQLiteError` naming the SQL, such as a constraint failure.
  @discardableResult
  public func step() throws -> Bool {
    let code = sqlite3_step(handle)
    try connection.check(code, sql: sql)
    return code == SQLITE_ROW
  }

  /// Binds `values` and runs the statement to the end, for INSERT, UPDATE and DELETE.
  public func run(_ values: [SQLiteValue] = []) throws {
    try bind(values)
    while try step() {}
  }

  /// Binds `values`, runs the statement, and maps every row with `row`.
  public func query<Row>(_ values: [SQLiteValue] = [], row: (SQLiteStatement) throws -> Row) throws -> [Row] {
    try bind(values)
    var rows: [Row] = []
    while try step() { rows.append(try row(self)) }
    return rows
  }

  // MARK: Reading the current row (columns count from 0)

  /// Whether the column holds NULL.
  public func isNull(at column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

  /// The column as a 64-bit integer.
  public func int64(at column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

  /// The column as a double.
  public func double(at column: Int32) -> Double { sqlite3_column_double(handle, column) }

  /// The column as text, or `nil` for NULL; read by its byte count, so a NUL inside it stays.
  public func text(at column: Int32) -> String? {
    guard let bytes = sqlite3_column_text(handle, column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
  }

  /// The column as bytes, or `nil` for NULL.
  public func blob(at column: Int32) -> Data? {
    guard !isNull(at: column) else { return nil }
    let count = Int(sqlite3_column_bytes(handle, column))
    guard count > 0, let bytes = sqlite3_column_blob(handle, column) else { return Data() }
    return Data(bytes: bytes, count: count)
  }

  /// The column as whichever value it holds.
  public func value(at column: Int32) -> SQLiteValue {
    switch sqlite3_column_type(handle, column) {
    case SQLITE_INTEGER: .integer(int64(at: column))
    case SQLITE_FLOAT: .real(double(at: column))
    case SQLITE_TEXT: text(at: column).map(SQLiteValue.text) ?? .null
    case SQLITE_BLOB: blob(at: column).map(SQLiteValue.blob) ?? .null
    default: .null
    }
  }
}

@available(*, unavailable)
extension SQLiteStatement: Sendable {}

/// Tells SQLite to copy bound text and blobs before the call returns.
private let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
