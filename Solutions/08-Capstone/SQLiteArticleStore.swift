import CourseSQLite
import Foundation

/// The articles on the device: the source of truth every screen reads.
///
/// Not `Sendable`: one connection, used by one owner at a time. The repository
/// keeps it behind its lock, so a write, the read after it and the publish of
/// what was read happen in one piece.
nonisolated final class SQLiteArticleStore {
  private let connection: SQLiteConnection

  /// Opens (or creates) the database at `path` and brings its schema up to date.
  /// - Throws: `SQLiteError`; a file that is not a database is left as it is.
  init(path: String) throws {
    connection = try SQLiteConnection(path: path)
    _ = try connection.migrate(Self.migrations)
  }

  /// Dates are kept as whole milliseconds since 1970: exact for the server's
  /// fractional seconds, and ordered as numbers, not as text.
  static let migrations = [
    SQLiteMigration(
      version: 1,
      sql: """
        CREATE TABLE articles (
          id TEXT PRIMARY KEY NOT NULL,
          title TEXT NOT NULL,
          body TEXT NOT NULL,
          updated_at_ms INTEGER NOT NULL
        );
        CREATE INDEX articles_newest_first ON articles (updated_at_ms DESC, id);
        CREATE TABLE refreshes (
          only_row INTEGER PRIMARY KEY CHECK (only_row = 1),
          refreshed_at_ms INTEGER NOT NULL
        );
        """)
  ]

  /// Every stored article, newest first; ties by id, so the order never flickers.
  func articles() throws -> [Article] {
    try connection.prepare("SELECT id, title, body, updated_at_ms FROM articles ORDER BY updated_at_ms DESC, id ASC")
      .query { row in
        Article(
          id: row.text(at: 0) ?? "", title: row.text(at: 1) ?? "", body: row.text(at: 2) ?? "",
          updatedAt: Self.date(milliseconds: row.int64(at: 3)))
      }
  }

  /// Keeps each article unless the store already holds that version or a newer
  /// one, and notes when the server last answered, in one transaction.
  ///
  /// A late answer to an earlier request therefore cannot roll an article back,
  /// and the same answer stored twice changes nothing.
  /// - Returns: Whether any article changed.
  func keep(_ articles: [Article], refreshedAt: Date) throws -> Bool {
    try connection.transaction {
      let upsert = try connection.prepare(
        """
        INSERT INTO articles (id, title, body, updated_at_ms) VALUES (?, ?, ?, ?)
        ON CONFLICT (id) DO UPDATE SET
          title = excluded.title, body = excluded.body, updated_at_ms = excluded.updated_at_ms
        WHERE \(Self.isNewer)
        """)
      var changed = false
      for article in articles {
        try upsert.run([
          .text(article.id), .text(article.title), .text(article.body),
          .integer(Self.milliseconds(article.updatedAt)),
        ])
        changed = changed || connection.changes > 0
      }
      try connection.prepare(
        """
        INSERT INTO refreshes (only_row, refreshed_at_ms) VALUES (1, ?)
        ON CONFLICT (only_row) DO UPDATE SET refreshed_at_ms = excluded.refreshed_at_ms
        """
      ).run([.integer(Self.milliseconds(refreshedAt))])
      return changed
    }
  }

  /// When an answer may replace a stored article: only with a newer version.
  static let isNewer = "excluded.updated_at_ms > articles.updated_at_ms"

  /// When the server last answered a refresh, or `nil` if it never has.
  func lastRefresh() throws -> Date? {
    try connection.prepare("SELECT refreshed_at_ms FROM refreshes").query { Self.date(milliseconds: $0.int64(at: 0)) }
      .first
  }

  static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1_000).rounded())
  }

  static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1_000)
  }
}
