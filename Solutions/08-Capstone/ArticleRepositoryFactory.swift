import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The capstone's composition root: the one place that knows which remote
/// source, which store and which repository make up the journal's data layer.
///
/// - Parameters:
///   - baseURL: The API's root, such as `https://catalog-3.test`.
///   - session: The session every request goes through.
///   - databasePath: The SQLite file the articles are kept in.
///   - now: The wall clock, for how old the last refresh is.
///   - report: Where a failure goes that no caller can catch, such as a refresh
///     behind a read that failed: the app's log. Standard error unless the app passes its own.
/// - Throws: `ArticleError.storage` when the database cannot be opened; the file is left as it was.
nonisolated public func makeArticleRepository(
  baseURL: URL, session: URLSession, databasePath: String, now: @escaping @Sendable () -> Date = { Date() },
  report: @escaping @Sendable (any Error) -> Void = reportToStandardError
) throws -> any ArticleRepository {
  let store: SQLiteArticleStore
  do {
    store = try SQLiteArticleStore(path: databasePath)
  } catch {
    throw ArticleError.storage
  }
  return OfflineFirstArticleRepository(
    store: store, remote: URLSessionArticleRemoteSource(baseURL: baseURL, session: session), now: now,
    report: report)
}

/// Writes a failure that no caller can catch to standard error:
/// `makeArticleRepository`'s `report` unless the app passes its own (its `os.Logger`).
nonisolated public func reportToStandardError(_ error: any Error) {
  FileHandle.standardError.write(Data("RepositoryCourse journal: \(error)\n".utf8))
}
