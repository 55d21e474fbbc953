import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

@Suite(.timeLimit(.minutes(1)))
struct EndpointTests {
  let base = URL(string: "https://catalog.example/api")!

  @Test func buildsAPageRequest() async throws {
    let request = try await guide.attempt(3, "products(limit: 5, skip: 10) should build a URLRequest") {
      try Endpoint.products(limit: 5, skip: 10).urlRequest(baseURL: base)
    }
    #expect(
      request.url?.absoluteString == "https://catalog.example/api/products?limit=5&skip=10",
      guide.task(
        3,
        "products(limit: 5, skip: 10) against \(base) should request https://catalog.example/api/products?limit=5&skip=10, got \(request.url?.absoluteString ?? "no URL")"
      )
    )
    #expect(request.httpMethod == "GET", guide.task(3, "a read is a GET, got \(request.httpMethod ?? "none")"))
    #expect(
      request.value(forHTTPHeaderField: "Accept") == "application/json",
      guide.task(
        3,
        "every request should send Accept: application/json, got \(request.value(forHTTPHeaderField: "Accept") ?? "none")"
      )
    )
  }

  @Test func buildsAProductRequest() async throws {
    let request = try await guide.attempt(3, "product(id: 42) should build a URLRequest") {
      try Endpoint.product(id: 42).urlRequest(baseURL: base)
    }
    #expect(
      request.url?.absoluteString == "https://catalog.example/api/products/42",
      guide.task(
        3,
        "product(id: 42) should request https://catalog.example/api/products/42, got \(request.url?.absoluteString ?? "no URL")"
      )
    )
  }

  @Test func sendsAJSONBodyWithItsMethod() async throws {
    let body = Data(#"{"title":"Lamp"}"#.utf8)
    let endpoint = Endpoint(path: "/products/add", method: .post, body: body)
    let request = try await guide.attempt(3, "a POST with a body should build a URLRequest") {
      try endpoint.urlRequest(baseURL: base)
    }
    #expect(
      request.httpMethod == "POST",
      guide.task(3, "the endpoint's method should become the request's, got \(request.httpMethod ?? "none")")
    )
    #expect(
      request.httpBody == body,
      guide.task(
        3, "the endpoint's body should become the request's httpBody, got \(request.httpBody?.count ?? 0) bytes"))
    #expect(
      request.value(forHTTPHeaderField: "Content-Type") == "application/json",
      guide.task(
        3,
        "a request with a JSON body should say Content-Type: application/json, got \(request.value(forHTTPHeaderField: "Content-Type") ?? "none")"
      )
    )
  }

  @Test func leavesOutAnEmptyQuery() async throws {
    let request = try await guide.attempt(3, "an endpoint without query items should build a URLRequest") {
      try Endpoint(path: "/products/1").urlRequest(baseURL: base)
    }
    #expect(
      request.url?.absoluteString == "https://catalog.example/api/products/1",
      guide.task(3, "no query items means no \"?\" in the URL, got \(request.url?.absoluteString ?? "no URL")")
    )
  }

  /// What most likely made `url` wrong, for the message.
  static func why(_ url: URL?) -> String {
    guard let url else { return "" }
    if url.path.contains("//") {
      return
        ". Joining the base URL and the path as strings doubles the slash; append the path with appendingPathComponent"
    }
    if url.absoluteString.hasSuffix("?") {
      return ". An empty queryItems array still adds a \"?\"; set queryItems only when there are some"
    }
    return ""
  }

  @Test func joinsABaseURLThatEndsWithASlash() async throws {
    let slashed = URL(string: "https://catalog.example/api/")!
    let request = try await guide.attempt(3, "product(id: 1) against \(slashed) should build a URLRequest") {
      try Endpoint.product(id: 1).urlRequest(baseURL: slashed)
    }
    #expect(
      request.url?.absoluteString == "https://catalog.example/api/products/1",
      guide.task(
        3,
        "product(id: 1) against \(slashed) should request https://catalog.example/api/products/1, got \(request.url?.absoluteString ?? "no URL")\(Self.why(request.url))"
      )
    )
  }
}
