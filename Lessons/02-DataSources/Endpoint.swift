import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request to the Catalog API, described as data.
///
/// `urlRequest(baseURL:)` is the only place a URL is put together, so the base
/// URL can change (a staging server, a fake in tests) without touching a call site.
struct Endpoint: Sendable, Hashable {
  enum Method: String, Sendable {
    case get = "GET"
    case post = "POST"
    case put = "PUT"
    case patch = "PATCH"
    case delete = "DELETE"
  }

  /// The path below the base URL, such as `/products/1`.
  var path: String
  var method: Method = .get
  var queryItems: [URLQueryItem] = []
  /// A JSON body, for writes.
  var body: Data?

  /// Builds the request against `baseURL`, keeping any path the base URL has.
  ///
  /// - Throws: `RemoteDataSourceError.invalidRequest` when the parts do not make a URL.
  func urlRequest(baseURL: URL) throws -> URLRequest {
    // TODO: Task 3. Append `path` to `baseURL`, add `queryItems` (none: no "?"),
    // set the method, `Accept: application/json`, and for a body its Content-Type.
    throw NotDoneYet(
      "Task 3", in: "Docs/02-DataSources.md", "Endpoint.urlRequest(baseURL:) should build the URLRequest")
  }
}

extension Endpoint {
  /// `GET /products?limit=&skip=`: one page of the catalog.
  static func products(limit: Int, skip: Int) -> Endpoint {
    Endpoint(
      path: "/products",
      queryItems: [URLQueryItem(name: "limit", value: String(limit)), URLQueryItem(name: "skip", value: String(skip))]
    )
  }

  /// `GET /products/{id}`: one product.
  static func product(id: Int) -> Endpoint {
    Endpoint(path: "/products/\(id)")
  }
}
