import CourseFixtures
import FakeCatalog
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A write repeated with the same `Idempotency-Key` is answered again and applied once;
/// stage 07's outbox relies on it when it sends a write whose answer it never got.
struct IdempotencyKeyTests {
  private func send(
    _ api: FakeCatalogAPI, _ method: String, _ path: String, _ body: String, key: String?
  ) async throws -> (JSONValue, HTTPURLResponse) {
    var request = URLRequest(url: api.baseURL.appendingPathComponent(path))
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.setValue(key, forHTTPHeaderField: "Idempotency-Key")
    request.httpBody = Data(body.utf8)
    let (data, response) = try await api.session.data(for: request)
    return (try JSONValue(data: data), try #require(response as? HTTPURLResponse))
  }

  @Test func aRepeatedAddIsAnsweredAgainAndAppliedOnce() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let (first, firstResponse) = try await send(api, "POST", "products/add", #"{"title":"Kettle"}"#, key: "add-1")
    let (again, againResponse) = try await send(api, "POST", "products/add", #"{"title":"Kettle"}"#, key: "add-1")
    #expect(firstResponse.statusCode == 201 && againResponse.statusCode == 201, "both answers are the first one, 201")
    #expect(again == first, "the repeat gets the first answer, got \(again) after \(first)")
    #expect(api.products.count == 4, "one product added, not two; the API holds \(api.products.count)")
    #expect(firstResponse.value(forHTTPHeaderField: "Idempotent-Replayed") == nil)
    #expect(againResponse.value(forHTTPHeaderField: "Idempotent-Replayed") == "true", "a replay says so")
  }

  @Test func aRepeatedUpdateDoesNotApplyTwice() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    _ = try await send(api, "PATCH", "products/1", #"{"stock":5}"#, key: "patch-1")
    _ = try await send(api, "PATCH", "products/1", #"{"stock":6}"#, key: "patch-2")
    let (replayed, response) = try await send(api, "PATCH", "products/1", #"{"stock":5}"#, key: "patch-1")
    #expect(response.statusCode == 200)
    #expect(replayed["stock"] == .number(5), "the replay repeats the first answer")
    #expect(api.products.first?["stock"] == .number(6), "the later write stands; the replay changed nothing")
  }

  @Test func aKeyReusedForAnotherRequestIsRefused() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    _ = try await send(api, "POST", "products/add", #"{"title":"Kettle"}"#, key: "k")
    let (answer, response) = try await send(api, "POST", "products/add", #"{"title":"Toaster"}"#, key: "k")
    #expect(response.statusCode == 422, "the same key with another body is a client error, got \(response.statusCode)")
    #expect(answer["message"]?.stringValue?.contains("Idempotency-Key") == true, "got \(answer)")
    #expect(api.products.count == 4)
  }

  @Test func writesWithoutAKeyApplyEachTime() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    _ = try await send(api, "POST", "products/add", #"{"title":"Kettle"}"#, key: nil)
    _ = try await send(api, "POST", "products/add", #"{"title":"Kettle"}"#, key: nil)
    #expect(api.products.count == 5, "two adds without a key are two products")
  }
}
