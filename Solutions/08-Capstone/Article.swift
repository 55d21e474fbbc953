import Foundation

// The domain of the capstone: what the app's screens see of the journal's
// articles, and nothing of how they travel or where they are kept. Everything
// else in this folder is yours to design (Docs/08-Capstone.md, "Your decisions").

/// One article of the shop's journal, as the app shows it.
nonisolated public struct Article: Sendable, Identifiable, Hashable {
  /// The server's id, a slug such as `packing-fragile-orders`.
  public let id: String
  public var title: String
  public var body: String
  /// When the server last changed the article.
  public var updatedAt: Date

  public init(id: String, title: String, body: String, updatedAt: Date) {
    self.id = id
    self.title = title
    self.body = body
    self.updatedAt = updatedAt
  }
}

/// The journal as the app's screens use it: the articles newest first, kept on
/// the device so they can be read offline.
nonisolated public protocol ArticleRepository: Sendable {
  /// The articles, newest first.
  func latest() async throws -> [Article]
  /// The articles now, then each time they change, for as long as the caller reads.
  func observeLatest() -> AsyncStream<[Article]>
  /// Asks the server for the articles and keeps what it answers.
  func refresh() async throws
}

/// What can go wrong, in the words a screen needs.
nonisolated public enum ArticleError: Error, Sendable, Hashable {
  /// No connection, or the connection dropped before an answer.
  case offline
  /// The server has no such resource (HTTP 404).
  case notFound
  /// The server answered with this HTTP status, outside 200–299.
  case server(Int)
  /// The answer was not the JSON the app expects.
  case decoding
  /// The database on the device could not be opened, read or written.
  case storage
}
