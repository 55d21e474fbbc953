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

struct EndpointTests {
  let base = URL(string: "https://catalog.example/api")!

  @Test func buildsAPageRequest() {
    let request = Result { try Endpoint.products(limit: 5, skip: 10).urlRequest(baseURL: base) }
    let url = (try? request.get())?.url?.absoluteString
    #expect(
      url == "https://catalog.example/api/products?limit=5&skip=10",
      guide.task(
        3,
        "products(limit: 5, skip: 10) against \(base) should request https://catalog.example/api/products?limit=5&skip=10, got \(request.map { $0.url?.absoluteString ?? "no URL" })"
      )
    )
    #expect(
      (try? request.get())?.httpMethod == "GET",
      guide.task(3, "a read is a GET, got \(String(describing: (try? request.get())?.httpMethod))"))
    #expect(
      (try? request.get())?.value(forHTTPHeaderField: "Accept") == "application/json",
      guide.task(3, "every request should send Accept: application/json")
    )
  }

  @Test func buildsAProductRequest() {
    let request = Result { try Endpoint.product(id: 42).urlRequest(baseURL: base) }
    #expect(
      (try? request.get())?.url?.absoluteString == "https://catalog.example/api/products/42",
      guide.task(
        3,
        "product(id: 42) should request https://catalog.example/api/products/42, got \(request.map { $0.url?.absoluteString ?? "no URL" })"
      )
    )
  }

  @Test func sendsAJSONBodyWithItsMethod() {
    let body = Data(#"{"title":"Lamp"}"#.utf8)
    let endpoint = Endpoint(path: "/products/add", method: .post, body: body)
    let request = try? endpoint.urlRequest(baseURL: base)
    #expect(
      request?.httpMethod == "POST",
      guide.task(3, "the endpoint's method should become the request's, got \(String(describing: request?.httpMethod))")
    )
    #expect(request?.httpBody == body, guide.task(3, "the endpoint's body should become the request's httpBody"))
    #expect(
      request?.value(forHTTPHeaderField: "Content-Type") == "application/json",
      guide.task(3, "a request with a JSON body should say Content-Type: application/json")
    )
  }

  @Test func leavesOutAnEmptyQuery() {
    let request = try? Endpoint(path: "/products/1").urlRequest(baseURL: base)
    #expect(
      request?.url?.absoluteString == "https://catalog.example/api/products/1",
      guide.task(3, "no query items means no \"?\" in the URL, got \(String(describing: request?.url))")
    )
  }
}
