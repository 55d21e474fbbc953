import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A second design behind the same composition root (Docs/08-Capstone.md, "Your decisions").
nonisolated public func makeArticleRepository(
  baseURL: URL, session: URLSession, databasePath: String, now: @escaping @Sendable () -> Date = { Date() }
) throws -> any ArticleRepository {
  // This design reads no clock: every read refreshes behind its answer.
  _ = now
  do {
    return try JournalRepository(
      database: ObservedDatabase(path: databasePath), api: .live(baseURL: baseURL, session: session))
  } catch {
    throw ArticleError.storage
  }
}
