import Foundation

/// A request as the fake Catalog API received it, kept for assertions.
public struct RecordedRequest: Sendable, Hashable {
  /// The HTTP method, such as `GET`.
  public let method: String
  /// The full URL, query included.
  public let url: URL
  /// The header fields as sent; look them up with `header(_:)`, which ignores case.
  public let headers: [String: String]
  /// The body, read from `httpBody` or from the body stream; `nil` when there is none.
  public let body: Data?
  /// The route the request matched, or `nil` for a path the API does not know.
  public let route: Route?

  /// Makes a request as a transport received it; the route follows from the method and path.
  public init(method: String, url: URL, headers: [String: String], body: Data?) {
    self.method = method
    self.url = url
    self.headers = headers
    self.body = body
    self.route = CatalogStore.route(method: method, path: url.path)
  }

  /// The URL's path, such as `/products/1`.
  public var path: String { url.path }

  /// The value of the query item `name`, or `nil` when the URL has none.
  public func query(_ name: String) -> String? {
    URLComponents(url: url, resolvingAgainstBaseURL: false)?
      .queryItems?.first { $0.name == name }?.value
  }

  /// The value of the header field `name`, compared without regard to case.
  public func header(_ name: String) -> String? {
    headers.first { $0.key.caseInsensitiveCompare(name) == .orderedSame }?.value
  }
}
