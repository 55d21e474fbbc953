import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// One request to the Catalog API, described as data.
///
/// `urlRequest(baseURL:)` is the only place a URL is put together, so the base
/// URL can change (a staging server, a fake in tests) without touching a call site.
nonisolated struct Endpoint: Sendable, Hashable {
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
    let trimmed = path.hasPrefix("/") ? String(path.dropFirst()) : path
    guard var components = URLComponents(url: baseURL.appendingPathComponent(trimmed), resolvingAgainstBaseURL: false)
    else {
      throw RemoteDataSourceError.invalidRequest("\(baseURL) + \(path)")
    }
    components.queryItems = queryItems.isEmpty ? nil : queryItems
    guard let url = components.url else {
      throw RemoteDataSourceError.invalidRequest("\(baseURL) + \(path)")
    }
    var request = URLRequest(url: url)
    request.httpMethod = method.rawValue
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    if let body {
      request.httpBody = body
      request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    }
    return request
  }
}

nonisolated extension Endpoint {
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
