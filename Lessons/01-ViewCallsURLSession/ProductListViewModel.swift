import Foundation
import Observation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The product list screen's view model, written the way many first versions are:
/// it builds the URL, calls URLSession, decodes JSON and sets its state, all inline.
///
/// It compiles, it works on a good day, and it fails in the five ways the tasks
/// of stage 01 name, all of them bugs that real apps ship.
/// Your job in stage 01 is to find and fix them in place. Run
/// `swift test --filter Lesson01` and read the failures: each one names its task
/// in Docs/01-ViewCallsURLSession.md.
@MainActor
@Observable
final class ProductListViewModel {
  /// What the list shows.
  private(set) var products: [Product] = []
  /// Whether a spinner should be on screen.
  private(set) var isLoading = false
  /// What went wrong, in words for the user; `nil` when nothing did.
  private(set) var errorMessage: String?

  private let baseURL: URL
  private let session: URLSession

  /// - Parameters:
  ///   - baseURL: Where the Catalog API lives, such as `https://dummyjson.com`.
  ///   - session: The session to send requests through.
  init(baseURL: URL, session: URLSession = .shared) {
    self.baseURL = baseURL
    self.session = session
  }

  /// Loads the first page of products.
  func load() async {
    isLoading = true
    let url = URL(string: "\(baseURL.absoluteString)/products?limit=30")!
    do {
      let (data, _) = try await URLSession.shared.data(from: url)
      let page = try JSONDecoder().decode(ProductsResponse.self, from: data)
      products = page.products
      isLoading = false
    } catch {
      products = []
    }
  }
}
