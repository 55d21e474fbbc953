import Foundation
import Observation

/// The product list of the offline app: it shows what the store holds, at once
/// and after every change, and a refresh only adds to it.
///
/// It depends on `OfflineProductRepository` alone, so a test drives it with a stub.
@MainActor
@Observable
final class OfflineProductListViewModel {
  /// What the store holds, newest first.
  private(set) var products: [Product] = []
  /// Whether a refresh is under way, for a pull-to-refresh spinner.
  private(set) var isRefreshing = false
  /// Why the last refresh or read failed; `nil` once one succeeds. The list stays as it was.
  private(set) var failure: ProductListViewModel.FailureMessage?

  private let repository: any OfflineProductRepository

  init(repository: any OfflineProductRepository) {
    self.repository = repository
  }

  /// Shows the store's list and each change of it, and refreshes once, until
  /// the calling task is cancelled (SwiftUI's `.task { await model.show() }`).
  func show() async {
    let stream: AsyncStream<[Product]>
    do {
      stream = try await repository.observe()
    } catch {
      failure = Self.message(for: error)
      return
    }
    async let refreshed: Void = refresh()
    for await list in stream {
      products = list
    }
    await refreshed
  }

  /// Fetches the first page into the store; the list updates through `show()`.
  func refresh() async {
    isRefreshing = true
    defer { isRefreshing = false }
    do {
      try await repository.refresh()
      failure = nil
    } catch is CancellationError {
      return
    } catch {
      failure = Self.message(for: error)
    }
  }

  private static func message(for error: any Error) -> ProductListViewModel.FailureMessage {
    guard let error = error as? CatalogError else {
      return .init(text: "Something went wrong. Try again.", offersRetry: true)
    }
    return ProductListViewModel.message(for: error)
  }
}
