import Observation

/// The product list screen's view model: one `state` value, `load()` and `retry()`.
///
/// It depends on `ProductRepository` only, and it is handed one; it never
/// builds its own dependencies.
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
    /// The load failed: show the message and a Try Again button.
    case failed(String)
  }

  private(set) var state: State = .idle

  private let repository: any ProductRepository
  private var isFetching = false

  init(repository: any ProductRepository) {
    self.repository = repository
  }

  /// Loads the products. A call while a load is running returns at once and
  /// starts no second fetch. A cancelled load puts back the state it found.
  func load() async {
    guard !isFetching else { return }
    isFetching = true
    defer { isFetching = false }
    let before = state
    state = .loading
    do {
      let products = try await repository.products()
      state = products.isEmpty ? .empty : .loaded(products)
    } catch is CancellationError {
      // Cancelled is not failed: SwiftUI cancels `.task` and `.refreshable`
      // whenever the view goes away. Show what was there and say nothing.
      state = before
    } catch {
      state = .failed(Self.message(for: error))
    }
  }

  /// Loads again after a failure; the Try Again button calls it.
  func retry() async {
    await load()
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
