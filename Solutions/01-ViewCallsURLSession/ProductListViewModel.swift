import Foundation
import Observation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The product list screen's view model, with the five bugs of stage 01's tasks fixed in place.
///
/// It still builds the URL, calls URLSession and decodes JSON itself. That is
/// the pain stage 02 removes: every test of this type needs an HTTP fake.
@MainActor
@Observable
final class ProductListViewModel {
  /// What the list shows. A failed or cancelled load keeps what was there before.
  private(set) var products: [Product] = []
  /// Whether a spinner should be on screen; false again once a load ends, however it ends.
  private(set) var isLoading = false
  /// What went wrong, in words for the user; `nil` after a successful load, kept through a cancelled one.
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
    // Task 4: however the load ends, the spinner goes away.
    defer { isLoading = false }
    var components = URLComponents(url: baseURL.appendingPathComponent("products"), resolvingAgainstBaseURL: false)
    components?.queryItems = [URLQueryItem(name: "limit", value: "30")]
    guard let url = components?.url else {
      errorMessage = "The catalog address \(baseURL) is not valid."
      return
    }
    do {
      // Task 1: the injected session, never URLSession.shared.
      let (data, response) = try await session.data(from: url)
      // Task 2: a 404 or a 500 is a failure, even though URLSession did not throw.
      guard let http = response as? HTTPURLResponse else {
        errorMessage = "The catalog did not answer over HTTP."
        return
      }
      guard (200..<300).contains(http.statusCode) else {
        let message = (try? JSONDecoder().decode(APIMessage.self, from: data))?.message
        errorMessage = "The catalog answered \(http.statusCode)" + (message.map { ": \($0)" } ?? ".")
        return
      }
      products = try JSONDecoder().decode(ProductsResponse.self, from: data).products
      // Task 5: a successful retry clears the old error.
      errorMessage = nil
    } catch let error as URLError where error.code == .cancelled {
      // Task 3: cancelled is not failed. SwiftUI cancels `.task` and `.refreshable`
      // when the view goes away; leave the screen as it was and say nothing.
    } catch is CancellationError {
      // The same, when Swift's own cancellation check throws first.
    } catch let error as URLError where error.code == .notConnectedToInternet {
      // Task 3: a failure is not an empty catalog; say what happened.
      errorMessage = "You are offline. Check your connection and try again."
    } catch is DecodingError {
      errorMessage = "The catalog sent data this app cannot read."
    } catch {
      errorMessage = "The catalog could not be reached: \(error.localizedDescription)"
    }
  }
}
