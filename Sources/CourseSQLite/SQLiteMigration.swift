/// One step of a schema's history, applied once, recorded in `PRAGMA user_version`.
public struct SQLiteMigration: Sendable {
  /// The version the database reaches after this migration: 1, 2, 3, …
  public let version: Int
  /// Changes the schema (and, if needed, the data) from `version - 1` to `version`.
  ///
  /// It runs inside the migration's transaction: it must not open another.
  public let apply: @Sendable (SQLiteConnection) throws -> Void

  /// A migration that runs code, for changes SQL alone cannot make.
  public init(version: Int, apply: @escaping @Sendable (SQLiteConnection) throws -> Void) {
    self.version = version
    self.apply = apply
  }

  /// A migration that runs SQL, one or more statements separated by `;`.
  public init(version: Int, sql: String) {
    self.init(version: version) { try $0.execute(sql) }
  }
}
