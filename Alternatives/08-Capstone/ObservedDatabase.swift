import CourseSQLite
import Foundation
import Synchronization

/// A database that publishes its own changes, as GRDB's `ValueObservation`
/// does: after every write that commits, it runs each observer's query again
/// and hands the observer the result when it differs from the last one.
///
/// The repository never publishes anything: whoever writes, every observer
/// hears of it.
nonisolated final class ObservedDatabase: Sendable {
  private struct State {
    let connection: SQLiteConnection
    var observers: [Int: Observer] = [:]
    var nextID = 0
  }

  private struct Observer {
    let continuation: AsyncStream<[Article]>.Continuation
    var last: [Article]
  }

  private let state: Mutex<State>
  /// Hears a read an observer needed and did not get: a stream cannot throw.
  private let report: @Sendable (any Error) -> Void

  init(path: String, report: @escaping @Sendable (any Error) -> Void) throws {
    self.report = report
    let connection = try SQLiteConnection(path: path)
    _ = try connection.migrate([
      SQLiteMigration(
        version: 1,
        sql: """
          CREATE TABLE article (
            id TEXT PRIMARY KEY NOT NULL, title TEXT NOT NULL, body TEXT NOT NULL,
            updated_at REAL NOT NULL
          );
          """)
    ])
    state = Mutex(State(connection: connection))
  }

  deinit {
    let observers = state.withLock { $0.observers.values.map(\.continuation) }
    for observer in observers { observer.finish() }
  }

  /// The articles, newest first. Dates are kept as seconds since 1970, a `REAL`:
  /// the exact `Double` a `Date` holds, where text from `ISO8601FormatStyle`
  /// would cut a millisecond off some of them.
  func read() throws -> [Article] {
    try state.withLock { try Self.read($0.connection) }
  }

  /// Runs `body` in one transaction; once it commits, every observer whose list changed hears of it.
  func write(_ body: @Sendable (SQLiteConnection) throws -> Void) throws {
    try state.withLock { state in
      try state.connection.transaction { try body(state.connection) }
      let now = try Self.read(state.connection)
      for (id, observer) in state.observers where observer.last != now {
        state.observers[id]?.last = now
        observer.continuation.yield(now)
      }
    }
  }

  /// The articles now, then after each write that changes them.
  func observe() -> AsyncStream<[Article]> {
    let (stream, continuation) = AsyncStream.makeStream(of: [Article].self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }
    let failure = state.withLock { state -> (any Error)? in
      var now: [Article] = []
      var failure: (any Error)?
      do { now = try Self.read(state.connection) } catch { failure = error }
      continuation.yield(now)
      state.observers[id] = Observer(continuation: continuation, last: now)
      return failure
    }
    // An observer of a store that cannot be read starts from `[]`; the app hears why.
    if let failure { report(failure) }
    return stream
  }

  private static func read(_ connection: SQLiteConnection) throws -> [Article] {
    try connection.prepare("SELECT id, title, body, updated_at FROM article ORDER BY updated_at DESC, id").query {
      Article(
        id: $0.text(at: 0) ?? "", title: $0.text(at: 1) ?? "", body: $0.text(at: 2) ?? "",
        updatedAt: Date(timeIntervalSince1970: $0.double(at: 3)))
    }
  }
}
