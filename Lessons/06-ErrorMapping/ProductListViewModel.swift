import Foundation
import LessonSupport
import Observation

/// The product list screen's view model: one `state` value, `load()` and `retry()`.
///
/// It depends on `ProductRepository` only, and it is handed one; it never
/// builds its own dependencies.
///
/// Stage 05: `lastUpdate` says when the shown products were fetched and whether
/// they may be out of date, and `refresh()` (pull to refresh) asks the network.
///
/// Stage 06: a failure is a `CatalogError`, and the screen shows the sentence
/// and the retry offer `message(for:)` gives it; products shown from the cache
/// because the network failed come with a `notice`. A cancelled load shows nothing.
@MainActor
@Observable
final class ProductListViewModel {
  /// Everything the screen can show, one at a time.
  nonisolated enum State: Equatable, Sendable {
    /// Nothing asked yet.
    case idle
    /// A load is running: show a spinner.
    case loading
    /// Products to list.
    case loaded([Product])
    /// The catalog answered with no products: show an empty state, not an error.
    case empty
    /// The load failed: show the message, and a Try Again button when it offers one.
    case failed(FailureMessage)
  }

  /// Stage 06: what the screen shows for a failure.
  nonisolated struct FailureMessage: Equatable, Sendable {
    /// The sentence a person reads.
    var text: String
    /// Whether the screen shows a Try Again button.
    var offersRetry: Bool
  }

  private(set) var state: State = .idle

  /// Stage 05: where the shown products came from, when they were fetched, and
  /// whether they may be out of date; `nil` until the first answer.
  private(set) var lastUpdate: LastUpdate?

  /// Stage 06: why the products on screen came from the cache, such as
  /// "You're offline.", or `nil` when the network answered.
  private(set) var notice: String?

  /// Stage 05: what the screen says about the age of what it shows.
  nonisolated struct LastUpdate: Equatable, Sendable {
    var fetchedAt: Date
    var origin: Origin
    var isStale: Bool
  }

  private let repository: any ProductRepository
  private var isFetching = false

  init(repository: any ProductRepository) {
    self.repository = repository
  }

  /// Loads the products. A call while a load is running returns at once and
  /// starts no second fetch. A cancelled load puts back the state it found.
  func load() async {
    await load(policy: .staleWhileRevalidate)
  }

  /// Stage 05: loads with `policy`; `load()` shows the cache at once, `refresh()` asks the network.
  private func load(policy: CachePolicy) async {
    guard !isFetching else { return }
    isFetching = true
    defer { isFetching = false }
    let before = state
    // Products on screen stay there while a refresh runs; the pull-to-refresh control shows progress.
    if case .loaded = state {} else { state = .loading }
    do {
      let answer = try await repository.products(policy: policy)
      lastUpdate = LastUpdate(fetchedAt: answer.fetchedAt, origin: answer.origin, isStale: answer.isStale)
      notice = answer.networkError.map(Self.notice(for:))  // Stage 06
      let products = answer.value
      state = products.isEmpty ? .empty : .loaded(products)
    } catch is CancellationError {
      // Cancelled is not failed: SwiftUI cancels `.task` and `.refreshable`
      // whenever the view goes away. Show what was there and say nothing.
      state = before
    } catch {
      // Stage 06: the repository throws only CatalogError; anything else is a bug below it.
      state = .failed(Self.message(for: error as? CatalogError ?? .invalidData("\(error)")))
      notice = nil
    }
  }

  /// Loads again after a failure; the Try Again button calls it.
  func retry() async {
    await load()
  }

  // MARK: Stage 05, Task 8: show how fresh it is

  /// Pull to refresh: asks the network even when the cache is fresh. When the
  /// network fails, the repository falls back to the cache, marked stale. A
  /// cancelled refresh keeps what was shown, and its `lastUpdate`.
  func refresh() async {
    await load(policy: .networkFirst)
  }

  /// "Updated 5 minutes ago" for the shown products, or `nil` before the first answer.
  func updatedText(now: Date) -> String? {
    lastUpdate.map { Self.updatedText(fetchedAt: $0.fetchedAt, now: now) }
  }

  /// How long ago `fetchedAt` was, in whole units rounded down: "Updated just
  /// now" under a minute (or for a time in the future), then minutes, hours and days.
  static func updatedText(fetchedAt: Date, now: Date) -> String {
    let seconds = Int(now.timeIntervalSince(fetchedAt).rounded(.down))
    func ago(_ count: Int, _ unit: String) -> String {
      "Updated \(count) \(unit)\(count == 1 ? "" : "s") ago"
    }
    switch seconds {
    case ..<60: return "Updated just now"
    case ..<3_600: return ago(seconds / 60, "minute")
    case ..<86_400: return ago(seconds / 3_600, "hour")
    default: return ago(seconds / 86_400, "day")
    }
  }

  // MARK: Stage 06, Task 5: tell the user

  /// What the screen shows for a failure (Docs/06-ErrorMapping.md, Task 5).
  static func message(for error: CatalogError) -> FailureMessage {
    // TODO: Task 5 (Docs/06-ErrorMapping.md).
    FailureMessage(
      text: NotDoneYet("Task 5", in: "Docs/06-ErrorMapping.md", "message(for:) should say what happened to \(error)")
        .description,
      offersRetry: false)
  }

  /// The line above products the cache showed because the network failed with
  /// `error` (Docs/06-ErrorMapping.md, Task 5).
  static func notice(for error: CatalogError) -> String {
    // TODO: Task 5 (Docs/06-ErrorMapping.md).
    NotDoneYet("Task 5", in: "Docs/06-ErrorMapping.md", "notice(for:) should say why saved products are shown")
      .description
  }

  /// "in 30 seconds", "in 2 minutes", "in 3 hours", "in 2 days" (whole units,
  /// rounded up), or "in a moment" without a time.
  static func wait(_ duration: Duration?) -> String {
    guard let duration, duration > .zero else { return "in a moment" }
    let (seconds, fraction) = duration.components
    // Rounded up without overflowing, however long the wait.
    let total = fraction > 0 && seconds < .max ? seconds + 1 : seconds
    func inUnits(_ size: Int64, _ unit: String) -> String {
      let count = total / size + (total % size > 0 ? 1 : 0)
      return "in \(count) \(unit)\(count == 1 ? "" : "s")"
    }
    switch total {
    case ..<60: return inUnits(1, "second")
    case ..<3_600: return inUnits(60, "minute")
    case ..<86_400: return inUnits(3_600, "hour")
    default: return inUnits(86_400, "day")
    }
  }
}
