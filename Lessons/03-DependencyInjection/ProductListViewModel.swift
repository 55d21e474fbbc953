import LessonSupport
import Observation

/// The product list screen's view model: one `state` value, `load()` and `retry()`.
///
/// Docs/03-DependencyInjection.md, Tasks 3 to 6; "Dependency injection through
/// `init`" says why its repository is handed in.
@MainActor
@Observable
final class ProductListViewModel {
  /// Everything the screen can show, one at a time ("One state instead of flags").
  nonisolated enum State: Equatable, Sendable {
    /// The first screen.
    case idle
    /// The spinner.
    case loading
    /// The list.
    case loaded([Product])
    /// The "No products" screen.
    case empty
    /// The error screen, with its message and a Try Again button.
    case failed(String)
  }

  private(set) var state: State = .idle

  private let repository: any ProductRepository

  init(repository: any ProductRepository) {
    self.repository = repository
  }

  /// Shows what the repository answers, as a `state`; `.task` calls it.
  func load() async {
    // TODO: Tasks 3 to 5 (Docs/03-DependencyInjection.md).
    state = .failed(
      NotDoneYet(
        "Task 3", in: "Docs/03-DependencyInjection.md",
        "load() should show what the repository answers, as a state"
      )
      .description)
  }

  /// What the Try Again button calls (Task 6).
  func retry() async {
    state = .failed(
      NotDoneYet("Task 6", in: "Docs/03-DependencyInjection.md", "retry() should do what Try Again means").description)
  }

  /// The sentence a user reads for a failure.
  static func message(for error: any Error) -> String {
    switch error as? RemoteDataSourceError {
    case .offline?: "You are offline. Check your connection and try again."
    case .http(let status, let message?)?: "The catalog answered \(status): \(message)"
    case .http(let status, nil)?: "The catalog answered \(status)."
    case .decoding?, .invalidData?, .notHTTP?: "The catalog sent data this app cannot read."
    case .invalidRequest?, .transport?, nil: "The catalog could not be reached. Try again."
    }
  }
}
