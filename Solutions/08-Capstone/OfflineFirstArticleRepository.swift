import Foundation
import Synchronization

/// The journal, offline first: the store answers every read, and the server
/// only fills the store.
///
/// - `latest()` answers from the store at once and refreshes behind the answer
///   when the last refresh is older than `maxAge`; only a store that has never
///   been filled waits for the server.
/// - `refresh()` keeps the server's answer in the store, then publishes the
///   stored list to every observer, if it changed.
/// - `observeLatest()` starts with the stored list and ends when the caller
///   stops reading, or when the repository goes away.
/// - What no caller can catch (a refresh behind a read that failed, a store an
///   observer could not read) goes to `report`.
nonisolated final class OfflineFirstArticleRepository: ArticleRepository {
  private struct State {
    let store: SQLiteArticleStore
    var observers: [Int: AsyncStream<[Article]>.Continuation] = [:]
    var nextObserver = 0
    /// The list the observers saw last; `nil` until the first is read.
    var published: [Article]?
    /// The refresh that a read started, if one is running: reads do not stack them up.
    var backgroundRefresh: Task<Void, Never>?
  }

  /// The store, the observers and what they saw, behind one lock: a write, the
  /// read after it and its publish happen in one piece, so two refreshes that
  /// finish together can never publish their lists out of order.
  private let state: Mutex<State>
  private let remote: any ArticleRemoteSource
  private let now: @Sendable () -> Date
  /// Where a failure goes that no caller can catch: a refresh behind a read, a store an observer could not read.
  private let report: @Sendable (any Error) -> Void
  /// How old the last refresh may be before a read asks the server again.
  let maxAge: TimeInterval

  init(
    store: sending SQLiteArticleStore, remote: any ArticleRemoteSource, now: @escaping @Sendable () -> Date,
    report: @escaping @Sendable (any Error) -> Void, maxAge: TimeInterval = 60
  ) {
    state = Mutex(State(store: store))
    self.remote = remote
    self.now = now
    self.report = report
    self.maxAge = maxAge
  }

  deinit {
    let observers = state.withLock { $0.observers.values }
    for observer in observers { observer.finish() }
  }

  func latest() async throws -> [Article] {
    let (stored, lastRefresh) = try state.withLock { state in
      try Self.storage { (try state.store.articles(), try state.store.lastRefresh()) }
    }
    guard let lastRefresh else {
      // Nothing was ever kept: only the server can answer.
      try await refresh()
      return try state.withLock { state in try Self.storage { try state.store.articles() } }
    }
    if now().timeIntervalSince(lastRefresh) >= maxAge { refreshInBackground() }
    return stored
  }

  func refresh() async throws {
    let articles = try await remote.articles()
    try state.withLock { state in
      let changed = try Self.storage { try state.store.keep(articles, refreshedAt: now()) }
      guard changed else { return }
      let stored = try Self.storage { try state.store.articles() }
      Self.publish(stored, in: &state)
    }
  }

  func observeLatest() -> AsyncStream<[Article]> {
    let (stream, continuation) = AsyncStream.makeStream(of: [Article].self, bufferingPolicy: .bufferingNewest(1))
    let id = state.withLock { state in
      state.nextObserver += 1
      return state.nextObserver
    }
    // Set before the observer is registered: a stream that is already over
    // calls it at once, and it takes the lock.
    continuation.onTermination = { [weak self] _ in
      self?.state.withLock { _ = $0.observers.removeValue(forKey: id) }
    }
    let failure = state.withLock { state -> (any Error)? in
      var failure: (any Error)?
      if state.published == nil {
        do { state.published = try state.store.articles() } catch { failure = error }
      }
      if let current = state.published { continuation.yield(current) }
      state.observers[id] = continuation
      return failure
    }
    // The stream cannot throw: the observer waits for the next change, and the
    // app hears why, outside the lock, since its sink may take locks of its own.
    if let failure { report(failure) }
    return stream
  }

  // MARK: Behind the seam

  private func refreshInBackground() {
    state.withLock { state in
      guard state.backgroundRefresh == nil else { return }
      state.backgroundRefresh = Task {
        // A failed background refresh leaves the stored list on screen, and the
        // next read tries again; the read has returned, so the app hears it.
        do {
          try await self.refresh()
        } catch is CancellationError {
        } catch {
          self.report(error)
        }
        self.state.withLock { $0.backgroundRefresh = nil }
      }
    }
  }

  /// Hands `list` to every observer, unless it is what they saw last.
  private static func publish(_ list: [Article], in state: inout State) {
    guard list != state.published else { return }
    state.published = list
    for observer in state.observers.values { observer.yield(list) }
  }

  /// The store's errors in the domain's words.
  private static func storage<Value>(_ body: () throws -> Value) throws -> Value {
    do {
      return try body()
    } catch {
      throw ArticleError.storage
    }
  }
}
