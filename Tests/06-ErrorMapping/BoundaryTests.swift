import CourseClock
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Tasks 2–4 at the boundary: whatever the fake Catalog API does, the
/// repository's public methods throw a `CatalogError` or `CancellationError`, never
/// a `URLError`, a `DecodingError` or a status code.
@Suite(.timeLimit(.minutes(1)))
struct BoundaryTests {
  /// Each fault the fake API can inject (latency has its own test), the domain
  /// error it must become, and the task whose table maps it.
  static let faults: [(Fault, CatalogError, Int)] = [
    (.offline, .offline, 2),
    (.timeout, .timedOut, 2),
    (.status(401), .unauthorized, 3),
    (.status(403), .unauthorized, 3),
    (.status(404), .notFound, 3),
    (.status(409), .rejected(status: 409), 3),
    (.status(429, headers: ["Retry-After": "120"]), .rateLimited(retryAfter: .seconds(120)), 3),
    (
      .status(429, headers: ["Retry-After": "Thu, 01 Jan 2026 00:01:30 GMT"]), .rateLimited(retryAfter: .seconds(90)), 3
    ),
    (.status(500), .server(status: 500), 3),
    (.status(503, headers: ["Retry-After": "5"]), .server(status: 503, retryAfter: .seconds(5)), 3),
    (.nonJSONBody, .offline, 3),
    (.body(""), .invalidData(""), 3),
    (.malformedBody, .invalidData(""), 4),
    (.truncatedBody, .invalidData(""), 4),
    (.body(#"{"products": "none", "total": 0, "skip": 0, "limit": 30}"#), .invalidData(""), 4),
    (.nonHTTPResponse, .invalidData(""), 3),
  ]

  /// Every public repository call: the list and one product, with each policy that asks the network.
  static let calls: [(String, @Sendable (CachingProductRepository) async throws -> Void)] = [
    ("products(policy: .networkFirst)", { _ = try await $0.products(policy: .networkFirst) }),
    ("products(policy: .networkOnly)", { _ = try await $0.products(policy: .networkOnly) }),
    ("products(policy: .cacheFirst)", { _ = try await $0.products(policy: .cacheFirst) }),
    ("products(policy: .staleWhileRevalidate)", { _ = try await $0.products(policy: .staleWhileRevalidate) }),
    ("product(id: 1, policy: .networkFirst)", { _ = try await $0.product(id: 1, policy: .networkFirst) }),
    ("product(id: 1, policy: .cacheFirst)", { _ = try await $0.product(id: 1, policy: .cacheFirst) }),
    ("product(id: 1, policy: .networkOnly)", { _ = try await $0.product(id: 1, policy: .networkOnly) }),
  ]

  /// The chain the app uses below the repository, without retries, over the fake API.
  static func repository(over api: FakeCatalogAPI) -> CachingProductRepository {
    CachingProductRepository(
      remote: URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow),
      store: InMemoryProductCacheStore(), now: testNow)
  }

  /// Whether `error` is `expected`, where any `.invalidData` text matches an expected `.invalidData("")`.
  static func matches(_ error: (any Error)?, _ expected: CatalogError) -> Bool {
    guard let error = error as? CatalogError else { return false }
    if case .invalidData(let text) = error, case .invalidData = expected { return !text.contains("Not done yet") }
    return error == expected
  }

  @Test(arguments: faults)
  func everyFaultReachesTheRepositoryAsACatalogError(fault: Fault, expected: CatalogError, task: Int) async {
    for (name, call) in Self.calls {
      let api = FakeCatalogAPI()
      api.inject(fault)
      let outcome = await Result { try await call(Self.repository(over: api)) }
      #expect(
        Self.matches(outcome.failure, expected),
        guide.task(
          task, "with the fault \(fault), \(name) should throw \(expected), got \(outcome)", blaming: outcome))
    }
  }

  /// The first fixture record with `change` applied, as the body of a one-product page.
  static func page(changing change: (inout [String: Any]) -> Void) throws -> String {
    var record = try #require(try JSONSerialization.jsonObject(with: JSONEncoderless.firstRecord) as? [String: Any])
    change(&record)
    let body = try JSONSerialization.data(withJSONObject: [
      "products": [record], "total": 1, "skip": 0, "limit": 30,
    ])
    return String(decoding: body, as: UTF8.self)
  }

  /// Bodies that decode but hold a value stage 02's mapper refuses, and the field it names.
  static let refusals: [(String, @Sendable (inout [String: Any]) -> Void)] = [
    ("price", { $0["price"] = -1 }),
    ("stock", { $0["stock"] = -3 }),
    ("updatedAt", { $0["meta"] = ["updatedAt": "2025-02-30T09:41:02.053Z"] }),
  ]

  @Test(arguments: refusals)
  func aValueTheAppRefusesIsInvalidDataNamingTheField(
    field: String, change: @Sendable (inout [String: Any]) -> Void
  ) async throws {
    let api = FakeCatalogAPI()
    api.inject(.body(try Self.page(changing: change)))
    let outcome = await Result { try await Self.repository(over: api).products(policy: .networkOnly) }
    let text = if case .invalidData(let text)? = outcome.failure as? CatalogError { text } else { "" }
    #expect(
      text.contains(field) && !text.contains("Not done yet"),
      guide.task(
        4,
        "a page whose product has a bad \(field) decodes, and the mapper refuses it: the repository should throw .invalidData naming \"\(field)\", got \(outcome)",
        blaming: outcome))
  }

  @Test func aCancelledRequestIsCancellationNotAnError() async {
    let api = FakeCatalogAPI()
    api.inject(.latency(.seconds(10)))
    let repository = Self.repository(over: api)
    let call = Task { try await repository.products(policy: .networkOnly) }
    let inFlight = await api.clock.waitForSleepers(count: 1, whileRunning: call)
    call.cancel()
    let outcome = await call.result
    #expect(inFlight, guide.task(2, "the request should wait on the API's latency until cancelled, got \(outcome)"))
    #expect(
      outcome.failure is CancellationError,
      guide.task(
        2,
        "a request cancelled in flight (URLError .cancelled) reaches the caller as CancellationError, got \(outcome)",
        blaming: outcome))
  }

  @Test func cacheOnlyWithNothingCachedIsACatalogError() async {
    let api = FakeCatalogAPI()
    let outcome = await Result { try await Self.repository(over: api).products(policy: .cacheOnly) }
    #expect(
      outcome.failure as? CatalogError == .nothingCached && api.requests.isEmpty,
      guide.task(
        1, "cache-only with nothing cached throws CatalogError.nothingCached without a request, got \(outcome)"))
  }
}
