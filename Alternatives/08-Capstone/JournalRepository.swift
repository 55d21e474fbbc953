import CourseSQLite
import Foundation
import Synchronization

/// The journal as a struct: a database that publishes its changes, the API as
/// closures, and a read policy of "always the store, and a refresh behind
/// every read unless one is running".
nonisolated struct JournalRepository: ArticleRepository {
  let database: ObservedDatabase
  let api: ArticleAPI
  /// Whether a read has started a refresh that is still running; shared by every copy of the struct.
  private let refreshing = RefreshFlag()
  /// Whether the store has been filled once; the first read waits for the server.
  private let filled: Bool
  /// Hears a refresh behind a read that failed: the read has returned, so nobody else can.
  let report: @Sendable (any Error) -> Void

  init(database: ObservedDatabase, api: ArticleAPI, report: @escaping @Sendable (any Error) -> Void) throws {
    self.database = database
    self.api = api
    self.report = report
    filled = !(try database.read().isEmpty)
  }

  func latest() async throws -> [Article] {
    let stored = try stored()
    if stored.isEmpty && !filled && !refreshing.isDone {
      try await refresh()
      return try self.stored()
    }
    if refreshing.start() {
      Task {
        do {
          try await refresh()
        } catch is CancellationError {
        } catch {
          report(error)
        }
        refreshing.stop()
      }
    }
    return stored
  }

  func observeLatest() -> AsyncStream<[Article]> {
    database.observe()
  }

  func refresh() async throws {
    let incoming = try await api.fetchLatest()
    do {
      try database.write { connection in
        // Versions as the store holds them, compared in Swift: only a newer one replaces a row.
        let held = Dictionary(
          try connection.prepare("SELECT id, updated_at FROM article").query {
            ($0.text(at: 0) ?? "", $0.double(at: 1))
          },
          uniquingKeysWith: { first, _ in first })
        var newest: [String: Article] = [:]
        for article in incoming where article.updatedAt > (newest[article.id]?.updatedAt ?? .distantPast) {
          newest[article.id] = article
        }
        let save = try connection.prepare(
          "INSERT OR REPLACE INTO article (id, title, body, updated_at) VALUES (?, ?, ?, ?)")
        for article in newest.values {
          let stamp = article.updatedAt.timeIntervalSince1970
          if let old = held[article.id], old >= stamp { continue }
          try save.run([.text(article.id), .text(article.title), .text(article.body), .real(stamp)])
        }
      }
      refreshing.markDone()
    } catch {
      throw ArticleError.storage
    }
  }

  private func stored() throws -> [Article] {
    do { return try database.read() } catch { throw ArticleError.storage }
  }
}

/// One refresh at a time behind reads, and whether any refresh has succeeded.
nonisolated private final class RefreshFlag: Sendable {
  private let state = Mutex((running: false, done: false))

  var isDone: Bool { state.withLock { $0.done } }

  /// Marks a refresh as running; `false` when one already is.
  func start() -> Bool {
    state.withLock { state in
      guard !state.running else { return false }
      state.running = true
      return true
    }
  }

  func stop() { state.withLock { $0.running = false } }
  func markDone() { state.withLock { $0.done = true } }
}
