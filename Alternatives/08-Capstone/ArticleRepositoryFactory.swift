import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A second design behind the same composition root (Docs/08-Capstone.md, "Your decisions").
nonisolated public func makeArticleRepository(
  baseURL: URL, session: URLSession, databasePath: String, now: @escaping @Sendable () -> Date = { Date() },
  report: @escaping @Sendable (any Error) -> Void = reportToStandardError
) throws -> any ArticleRepository {
  // This design reads no clock: every read refreshes behind its answer.
  _ = now
  do {
    return try JournalRepository(
      database: ObservedDatabase(path: databasePath, report: report), api: .live(baseURL: baseURL, session: session),
      report: report)
  } catch {
    throw ArticleError.storage
  }
}

/// Writes a failure that no caller can catch to standard error:
/// `makeArticleRepository`'s `report` unless the app passes its own (its `os.Logger`).
nonisolated public func reportToStandardError(_ error: any Error) {
  FileHandle.standardError.write(Data("RepositoryCourse journal: \(error)\n".utf8))
}
