import Foundation
import LessonSupport
import Observation

/// The product list screen's view model, now free of URLs, JSON and status codes.
///
/// It asks a `ProductRemoteDataSource` for the first page. Its tests hand it a
/// stub source and run without any HTTP at all.
@MainActor
@Observable
final class ProductListViewModel {
  /// What the list shows. A failed load keeps what was there before.
  private(set) var products: [Product] = []
  /// Whether a spinner should be on screen; false again once a load ends.
  private(set) var isLoading = false
  /// What went wrong, in words for the user; `nil` when the last load succeeded.
  private(set) var errorMessage: String?

  private let remote: any ProductRemoteDataSource

  init(remote: any ProductRemoteDataSource) {
    self.remote = remote
  }

  /// Loads the first page of products.
  ///
  /// A cancelled load (the view went away, a refresh replaced it) is not a
  /// failure: the screen keeps what it showed before, and no message appears.
  func load() async {
    isLoading = true
    defer { isLoading = false }
    do {
      // TODO: Task 6. Show the first page from `remote`; a cancelled load is no failure.
      let page: ProductPage = try notDoneYet(
        "Task 6", in: "Docs/02-DataSources.md", "load() should show the first page from the remote source")
      products = page.products
      errorMessage = nil
    } catch let error as RemoteDataSourceError {
      errorMessage = Self.message(for: error)
    } catch {
      errorMessage = "Something went wrong: \(error)"
    }
  }

  /// The sentence a user reads for each failure.
  static func message(for error: RemoteDataSourceError) -> String {
    switch error {
    case .offline: "You are offline. Check your connection and try again."
    case .http(let status, let message?): "The catalog answered \(status): \(message)"
    case .http(let status, nil): "The catalog answered \(status)."
    case .decoding, .invalidData, .notHTTP: "The catalog sent data this app cannot read."
    case .invalidRequest, .transport: "The catalog could not be reached. Try again."
    }
  }
}
