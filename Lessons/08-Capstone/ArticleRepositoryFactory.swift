import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The capstone's composition root: the one place that knows which parts make
/// up the journal's data layer. The parts are yours to design; the tests see
/// only this function and the types in Article.swift.
///
/// - Parameters:
///   - baseURL: The API's root, such as `https://catalog-3.test`.
///   - session: The session every request goes through.
///   - databasePath: The SQLite file the articles are kept in.
///   - now: The wall clock.
///   - report: Where a failure goes that no caller can catch: the app's log.
///     Standard error unless the app passes its own.
nonisolated public func makeArticleRepository(
  baseURL: URL, session: URLSession, databasePath: String, now: @escaping @Sendable () -> Date = { Date() },
  report: @escaping @Sendable (any Error) -> Void = reportToStandardError
) throws -> any ArticleRepository {
  // TODO: Task 1 (Docs/08-Capstone.md): return the journal's repository, built from parts you design.
  throw NotDoneYet("Task 1", in: "Docs/08-Capstone.md", "build the journal's data layer and return it here")
}

/// Writes a failure that no caller can catch to standard error:
/// `makeArticleRepository`'s `report` unless the app passes its own (its `os.Logger`).
nonisolated public func reportToStandardError(_ error: any Error) {
  FileHandle.standardError.write(Data("RepositoryCourse journal: \(error)\n".utf8))
}
