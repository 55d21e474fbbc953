import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

struct FakeCatalogAPITests {
  private func get(_ api: FakeCatalogAPI, _ pathAndQuery: String) async throws -> (JSONValue, Int) {
    let url = try #require(URL(string: api.baseURL.absoluteString + pathAndQuery))
    let (data, response) = try await api.session.data(from: url)
    let status = try #require(response as? HTTPURLResponse).statusCode
    return (try JSONValue(data: data), status)
  }

  private func send(_ api: FakeCatalogAPI, _ method: String, _ path: String, _ body: JSONValue?) async throws -> (
    JSONValue, Int
  ) {
    var request = URLRequest(url: api.baseURL.appendingPathComponent(path))
    request.httpMethod = method
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    request.httpBody = body?.encoded()
    let (data, response) = try await api.session.data(for: request)
    return (try JSONValue(data: data), try #require(response as? HTTPURLResponse).statusCode)
  }

  @Test func pagesWithLimitAndSkip() async throws {
    let api = FakeCatalogAPI()
    let (page, status) = try await get(api, "/products?limit=5&skip=10")
    #expect(status == 200)
    guard case .array(let products) = page["products"] else {
      Issue.record("expected a products array, got \(page)")
      return
    }
    #expect(products.map { $0["id"] } == (11...15).map { .number(Double($0)) })
    #expect(page["total"] == .number(194))
    #expect(page["skip"] == .number(10))
    #expect(page["limit"] == .number(5))
  }

  @Test func defaultsToThirtyAndLimitZeroMeansAll() async throws {
    let api = FakeCatalogAPI()
    let (first, _) = try await get(api, "/products")
    let (all, _) = try await get(api, "/products?limit=0")
    #expect(first["limit"] == .number(30))
    #expect(all["limit"] == .number(194))
  }

  @Test func servesOneProductAndAMessageForAMissingOne() async throws {
    let api = FakeCatalogAPI()
    let (product, ok) = try await get(api, "/products/1")
    #expect(ok == 200)
    #expect(product["title"] == .string("Essence Mascara Lash Princess"))
    let (missing, notFound) = try await get(api, "/products/999")
    #expect(notFound == 404)
    #expect(missing["message"] == .string("Product with id '999' not found"))
  }

  @Test func searchesTitlesAndDescriptions() async throws {
    let api = FakeCatalogAPI()
    let (page, _) = try await get(api, "/products/search?q=MASCARA")
    guard case .array(let products) = page["products"] else {
      Issue.record("expected a products array, got \(page)")
      return
    }
    #expect(!products.isEmpty)
    #expect(
      products.allSatisfy {
        $0["title"]?.stringValue?.lowercased().contains("mascara") == true
          || $0["description"]?.stringValue?.lowercased().contains("mascara") == true
      })
  }

  @Test func keepsAddsUpdatesAndDeletes() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let (added, addStatus) = try await send(api, "POST", "products/add", .object(["title": .string("Kettle")]))
    #expect(addStatus == 201)
    let id = try #require(added["id"]?.numberValue)
    #expect(id > 3, "the server's id is above every id it holds, got \(id)")
    let (updated, _) = try await send(api, "PATCH", "products/\(Int(id))", .object(["price": .number(19.5)]))
    #expect(updated["title"] == .string("Kettle"))
    #expect(updated["price"] == .number(19.5))
    let (deleted, _) = try await send(api, "DELETE", "products/1", nil)
    #expect(deleted["isDeleted"] == .bool(true))
    #expect(api.products.map { $0["id"] } == [.number(2), .number(3), .number(id)])
  }

  // MARK: The habits of a real server

  private func exchange(
    _ api: FakeCatalogAPI, _ method: String, _ path: String, body: String? = nil, headers: [String: String] = [:]
  ) async throws -> (JSONValue?, HTTPURLResponse) {
    var request = URLRequest(url: api.baseURL.appendingPathComponent(path))
    request.httpMethod = method
    request.httpBody = body.map { Data($0.utf8) }
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let (data, response) = try await api.session.data(for: request)
    return (try? JSONValue(data: data), try #require(response as? HTTPURLResponse))
  }

  @Test func addedIDsAreNotTheHighestPlusOne() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    var ids: [Double] = []
    for _ in 0..<5 {
      let (added, _) = try await exchange(api, "POST", "products/add", body: #"{"title": "Kettle"}"#)
      ids.append(try #require(added?["id"]?.numberValue))
    }
    #expect(ids == ids.sorted() && Set(ids).count == 5, "ids grow and are never reused, got \(ids)")
    let gaps = zip(ids, [3] + ids.dropLast()).map { $0 - $1 }
    #expect(gaps.contains { $0 != 1 }, "a client cannot predict them as max + 1, got gaps \(gaps)")
  }

  @Test func everyAnswerIsDatedAndAProductCarriesItsVersion() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let (product, response) = try await exchange(api, "GET", "products/1")
    let version = try #require(product?["meta"]?["updatedAt"]?.stringValue)
    #expect(response.value(forHTTPHeaderField: "ETag") == "\"\(version)\"")
    let date = try #require(response.value(forHTTPHeaderField: "Date"))
    #expect(date.hasSuffix(" GMT") && date.count == 29, "an HTTP date, got \(date)")
    let (_, list) = try await exchange(api, "GET", "products")
    #expect(list.value(forHTTPHeaderField: "Date") != nil)
  }

  @Test func theServerStampsUpdatedAtAndRefusesAStaleIfMatch() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let (before, _) = try await exchange(api, "GET", "products/1")
    let old = try #require(before?["meta"]?["updatedAt"]?.stringValue)
    let body = #"{"title": "Mine", "meta": {"updatedAt": "1999-01-01T00:00:00.000Z"}}"#
    let (first, firstResponse) = try await exchange(
      api, "PUT", "products/1", body: body, headers: ["If-Match": "\"\(old)\""])
    let stamped = try #require(first?["meta"]?["updatedAt"]?.stringValue)
    #expect(firstResponse.statusCode == 200 && stamped != old && !stamped.hasPrefix("1999"), "got \(stamped)")
    let (_, stale) = try await exchange(api, "PUT", "products/1", body: body, headers: ["If-Match": "\"\(old)\""])
    #expect(stale.statusCode == 412, "a write against an old version, got \(stale.statusCode)")
    #expect(stale.value(forHTTPHeaderField: "ETag") == "\"\(stamped)\"")
    let (_, any) = try await exchange(api, "DELETE", "products/1", headers: ["If-Match": "*"])
    #expect(any.statusCode == 200)
  }

  @Test func aKeyStillInFlightIs409AndAnotherBodyWithTheKeyIs422() async throws {
    let clock = TestClock()
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)), clock: clock)
    api.inject(.latency(.seconds(1)), on: .add, times: 1)
    let key = ["Idempotency-Key": "k-1"]
    let slow = Task { try await exchange(api, "POST", "products/add", body: #"{"title": "A"}"#, headers: key) }
    await clock.waitForSleepers()
    let (_, busy) = try await exchange(api, "POST", "products/add", body: #"{"title": "A"}"#, headers: key)
    #expect(busy.statusCode == 409)
    clock.advance(by: .seconds(1))
    #expect(try await slow.value.1.statusCode == 201)
    let (_, other) = try await exchange(api, "POST", "products/add", body: #"{"title": "B"}"#, headers: key)
    #expect(other.statusCode == 422)
    #expect(api.products.count == 4, "applied once")
  }

  @Test func aKindCatalogHasNoneOfTheHabits() async throws {
    let clock = TestClock()
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)), clock: clock)
    api.habits = .kind
    let (added, addedResponse) = try await exchange(api, "POST", "products/add", body: #"{"title": "Kettle"}"#)
    #expect(added?["id"] == .number(4), "ids as max + 1, got \(added?["id"].map { "\($0)" } ?? "none")")
    #expect(
      addedResponse.value(forHTTPHeaderField: "Date") == nil && addedResponse.value(forHTTPHeaderField: "ETag") == nil)
    let (_, stale) = try await exchange(
      api, "PUT", "products/1", body: #"{"title": "Mine"}"#, headers: ["If-Match": "\"1999-01-01T00:00:00.000Z\""])
    #expect(stale.statusCode == 200, "no version check, got \(stale.statusCode)")
    api.inject(.latency(.seconds(1)), on: .add, times: 1)
    let key = ["Idempotency-Key": "k-2"]
    let slow = Task { try await exchange(api, "POST", "products/add", body: #"{"title": "A"}"#, headers: key) }
    await clock.waitForSleepers()
    let (_, second) = try await exchange(api, "POST", "products/add", body: #"{"title": "A"}"#, headers: key)
    clock.advance(by: .seconds(1))
    _ = try await slow.value
    #expect(second.statusCode == 201, "no 409 for a key in flight, got \(second.statusCode)")
    api.habits = .real
    let (_, real) = try await exchange(api, "GET", "products/1")
    #expect(real.value(forHTTPHeaderField: "ETag") != nil && real.value(forHTTPHeaderField: "Date") != nil)
  }

  @Test func aLostAnswerWasApplied() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    api.inject(.answerLost, on: .add, times: 1)
    let outcome = await Result { try await exchange(api, "POST", "products/add", body: #"{"title": "A"}"#) }
    #expect((outcome.failure as? URLError)?.code == .networkConnectionLost, "got \(outcome)")
    #expect(api.products.count == 4, "the write was applied before the connection dropped")
  }

  /// An unreadable 2xx for a write the catalog applied: the body cut short, or not JSON.
  @Test(arguments: [
    (Fault.answerCut, "POST", "products/add"), (.answerNotJSON, "POST", "products/add"),
    (.answerCut, "PUT", "products/1"), (.answerNotJSON, "PUT", "products/1"),
    (.answerCut, "DELETE", "products/1"), (.answerNotJSON, "DELETE", "products/1"),
  ])
  func anUnreadableAnswerWasAppliedAndItsKeyReplaysTheWholeAnswer(fault: Fault, method: String, path: String)
    async throws
  {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    api.inject(fault, times: 1)
    let key = ["Idempotency-Key": "k-\(method)"]
    let body = method == "DELETE" ? nil : #"{"title": "A"}"#
    let (cut, first) = try await exchange(api, method, path, body: body, headers: key)
    #expect(first.statusCode / 100 == 2, "a 2xx, got \(first.statusCode)")
    #expect(cut == nil, "a body that is not JSON, got \(cut.map(String.init(describing:)) ?? "none")")
    let count = method == "POST" ? 4 : method == "DELETE" ? 2 : 3
    #expect(api.products.count == count, "the write was applied before its answer left")
    let (whole, replay) = try await exchange(api, method, path, body: body, headers: key)
    #expect(
      whole != nil && replay.statusCode == first.statusCode
        && replay.value(forHTTPHeaderField: "Idempotent-Replayed") == "true",
      "the same key again gets the kept answer, whole, got \(replay.statusCode), \(whole.map(String.init(describing:)) ?? "no JSON")"
    )
    #expect(api.products.count == count, "the replay applied nothing")
  }

  @Test func recordsMethodURLHeadersAndBody() async throws {
    let api = FakeCatalogAPI()
    var request = URLRequest(url: api.baseURL.appendingPathComponent("products/add"))
    request.httpMethod = "POST"
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    request.httpBody = Data(#"{"title":"Lamp"}"#.utf8)
    _ = try await api.session.data(for: request)
    let recorded = try #require(api.requests.first)
    #expect(recorded.method == "POST")
    #expect(recorded.path == "/products/add")
    #expect(recorded.route == .add)
    #expect(recorded.header("accept") == "application/json")
    #expect(recorded.body == Data(#"{"title":"Lamp"}"#.utf8))
  }

  @Test(arguments: [400, 401, 404, 429, 500, 503])
  func injectsAnyStatusWithAMessageBody(status: Int) async throws {
    let api = FakeCatalogAPI()
    api.inject(.status(status, message: "Nope", headers: ["Retry-After": "3"]), on: .list, times: 1)
    let url = api.baseURL.appendingPathComponent("products")
    let (data, response) = try await api.session.data(from: url)
    let http = try #require(response as? HTTPURLResponse)
    #expect(http.statusCode == status)
    #expect(http.value(forHTTPHeaderField: "Retry-After") == "3")
    #expect(try JSONValue(data: data)["message"] == .string("Nope"))
    let (_, again) = try await api.session.data(from: url)
    #expect((again as? HTTPURLResponse)?.statusCode == 200, "times: 1 affects one request only")
  }

  @Test func faultsAimAtTheirRouteOnly() async throws {
    let api = FakeCatalogAPI()
    api.inject(.status(500), on: .product)
    let (_, listStatus) = try await get(api, "/products")
    let (_, productStatus) = try await get(api, "/products/1")
    #expect(listStatus == 200)
    #expect(productStatus == 500)
    api.clearFaults()
    let (_, cleared) = try await get(api, "/products/1")
    #expect(cleared == 200)
  }

  @Test(arguments: [(Fault.offline, URLError.Code.notConnectedToInternet), (.timeout, .timedOut)])
  func failsLikeTheNetwork(fault: Fault, code: URLError.Code) async throws {
    let api = FakeCatalogAPI()
    api.inject(fault)
    do {
      _ = try await api.session.data(from: api.baseURL.appendingPathComponent("products"))
      Issue.record("expected URLError(\(code))")
    } catch let error as URLError {
      #expect(error.code == code)
    }
  }

  @Test(arguments: [Fault.malformedBody, .truncatedBody, .nonJSONBody, .body("[]")])
  func servesBrokenBodiesWithStatus200(fault: Fault) async throws {
    let api = FakeCatalogAPI()
    api.inject(fault)
    let (data, response) = try await api.session.data(from: api.baseURL.appendingPathComponent("products"))
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
    let isPage = (try? JSONValue(data: data))?["products"] != nil
    #expect(!isPage, "the body must not decode as a page")
  }

  @Test func answersAStatusWithAnExactBody() async throws {
    let api = FakeCatalogAPI()
    api.inject(.statusWithBody(502, body: "<html>Bad Gateway</html>"))
    let (data, response) = try await api.session.data(from: api.baseURL.appendingPathComponent("products"))
    #expect((response as? HTTPURLResponse)?.statusCode == 502)
    #expect(String(decoding: data, as: UTF8.self) == "<html>Bad Gateway</html>")
  }

  @Test func canAnswerWithoutHTTP() async throws {
    let api = FakeCatalogAPI()
    api.inject(.nonHTTPResponse)
    let (data, response) = try await api.session.data(from: api.baseURL.appendingPathComponent("products/1"))
    #expect(!(response is HTTPURLResponse))
    #expect(try JSONValue(data: data)["id"] == .number(1))
  }

  @Test func latencyWaitsOnTheInjectedClock() async throws {
    let clock = TestClock()
    let api = FakeCatalogAPI(clock: clock)
    api.inject(.latency(.seconds(2)))
    let request = Task { try await api.session.data(from: api.baseURL.appendingPathComponent("products/1")) }
    let slept = await clock.waitForSleepers(count: 1, whileRunning: request)
    #expect(slept, "the request must wait on the clock")
    clock.advance(by: .seconds(2))
    let (_, response) = try await request.value
    #expect((response as? HTTPURLResponse)?.statusCode == 200)
  }

  @Test func concurrentAPIsNeverSeeEachOthersRequests() async throws {
    let apis = (0..<8).map { _ in FakeCatalogAPI() }
    for (index, api) in apis.enumerated() where index.isMultiple(of: 2) { api.inject(.status(500)) }
    try await withThrowingTaskGroup(of: Void.self) { group in
      for api in apis {
        group.addTask {
          for id in 1...3 { _ = try await api.session.data(from: api.baseURL.appendingPathComponent("products/\(id)")) }
        }
      }
      try await group.waitForAll()
    }
    for api in apis {
      #expect(api.requests.map(\.path) == ["/products/1", "/products/2", "/products/3"])
      #expect(api.requests.allSatisfy { $0.url.host == api.baseURL.host })
    }
  }

  @Test func requestsThroughTheSharedSessionAreCaughtAndRecorded() async throws {
    let api = FakeCatalogAPI()
    await #expect(throws: URLError.self) {
      _ = try await URLSession.shared.data(from: api.baseURL.appendingPathComponent("products"))
    }
    #expect(api.requests.isEmpty)
    #expect(api.sharedSessionRequests.map(\.path) == ["/products"])
  }
}
