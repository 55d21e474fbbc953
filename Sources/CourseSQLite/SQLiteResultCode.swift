#if canImport(SQLite3)
  import SQLite3
#else
  import CSQLite
#endif

/// A primary SQLite result code with its C name, so code and tests say
/// `.constraint` or `.busy`, never `19` or `5`.
///
/// ```swift
/// catch let error as SQLiteError where error.code == .constraint { … }
/// ```
///
/// `description` is the C name, such as `SQLITE_CONSTRAINT`.
public struct SQLiteResultCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
  /// The number SQLite returns; stays inside the wrapper.
  public let rawValue: Int32

  /// Wraps a result code as SQLite returned it.
  public init(rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// A generic error: an SQL syntax error, a missing table, or a rule this wrapper enforces.
  public static let error = SQLiteResultCode(rawValue: SQLITE_ERROR)
  /// Another connection holds a lock the call needed, for longer than the busy timeout.
  public static let busy = SQLiteResultCode(rawValue: SQLITE_BUSY)
  /// A conflict inside the same connection, such as dropping a table a statement is reading.
  public static let locked = SQLiteResultCode(rawValue: SQLITE_LOCKED)
  /// A write to a database opened read-only or on a read-only file.
  public static let readonly = SQLiteResultCode(rawValue: SQLITE_READONLY)
  /// The operating system reported an I/O error.
  public static let ioerr = SQLiteResultCode(rawValue: SQLITE_IOERR)
  /// The file is damaged: a database whose pages do not make sense.
  public static let corrupt = SQLiteResultCode(rawValue: SQLITE_CORRUPT)
  /// The disk is full.
  public static let full = SQLiteResultCode(rawValue: SQLITE_FULL)
  /// The file could not be opened: a missing folder, a directory, no permission.
  public static let cantOpen = SQLiteResultCode(rawValue: SQLITE_CANTOPEN)
  /// A `NOT NULL`, `UNIQUE`, `CHECK`, `PRIMARY KEY` or foreign-key constraint failed.
  public static let constraint = SQLiteResultCode(rawValue: SQLITE_CONSTRAINT)
  /// A value of the wrong type, such as a non-integer into an `INTEGER PRIMARY KEY`.
  public static let mismatch = SQLiteResultCode(rawValue: SQLITE_MISMATCH)
  /// The API was used the wrong way, such as a transaction opened inside another.
  public static let misuse = SQLiteResultCode(rawValue: SQLITE_MISUSE)
  /// A parameter index out of range, or a statement bound with the wrong number of values.
  public static let range = SQLiteResultCode(rawValue: SQLITE_RANGE)
  /// The file is not an SQLite database at all.
  public static let notADatabase = SQLiteResultCode(rawValue: SQLITE_NOTADB)

  /// The C name of the code, such as `SQLITE_CONSTRAINT`; the number for a code SQLite does not define.
  public var description: String {
    Self.names[rawValue].map { "SQLITE_\($0)" } ?? "SQLite result code \(rawValue)"
  }

  /// Every primary result code SQLite defines, by number, without the `SQLITE_` prefix.
  private static let names: [Int32: String] = [
    SQLITE_OK: "OK", SQLITE_ERROR: "ERROR", SQLITE_INTERNAL: "INTERNAL", SQLITE_PERM: "PERM",
    SQLITE_ABORT: "ABORT", SQLITE_BUSY: "BUSY", SQLITE_LOCKED: "LOCKED", SQLITE_NOMEM: "NOMEM",
    SQLITE_READONLY: "READONLY", SQLITE_INTERRUPT: "INTERRUPT", SQLITE_IOERR: "IOERR", SQLITE_CORRUPT: "CORRUPT",
    SQLITE_NOTFOUND: "NOTFOUND", SQLITE_FULL: "FULL", SQLITE_CANTOPEN: "CANTOPEN", SQLITE_PROTOCOL: "PROTOCOL",
    SQLITE_EMPTY: "EMPTY", SQLITE_SCHEMA: "SCHEMA", SQLITE_TOOBIG: "TOOBIG", SQLITE_CONSTRAINT: "CONSTRAINT",
    SQLITE_MISMATCH: "MISMATCH", SQLITE_MISUSE: "MISUSE", SQLITE_NOLFS: "NOLFS", SQLITE_AUTH: "AUTH",
    SQLITE_FORMAT: "FORMAT", SQLITE_RANGE: "RANGE", SQLITE_NOTADB: "NOTADB", SQLITE_NOTICE: "NOTICE",
    SQLITE_WARNING: "WARNING", SQLITE_ROW: "ROW", SQLITE_DONE: "DONE",
  ]
}
