import CourseClock
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

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
    (
      .status(429, headers: ["Retry-After": "99999999999999999999"]),
      .rateLimited(retryAfter: CatalogError.longestRetryAfter), 3
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

  /// `expected` for a message: an expected `.invalidData("")` stands for any text.
  static func expectedText(_ expected: CatalogError) -> String {
    if case .invalidData = expected { return "invalidData(any text)" }
    return shown(expected)
  }

  /// Whether `error` is `expected`, where any `.invalidData` text matches an expected `.invalidData("")`.
  static func matches(_ error: (any Error)?, _ expected: CatalogError) -> Bool {
    guard let error = error as? CatalogError else { return false }
    if case .invalidData(let text) = error, case .invalidData = expected { return !text.contains("Not done yet") }
    return error == expected
  }

  @Test(arguments: faults)
  func everyFaultReachesTheRepositoryAsACatalogError(fault: Fault, expected: CatalogError, task: Int) async {
    // One line per fault: the calls that went wrong, grouped by what they gave instead.
    var wrong: [(got: String, names: [String], outcome: Result<Void, any Error>)] = []
    for (name, call) in Self.calls {
      // The catalog's clock agrees with the device's here, so a Retry-After date means what the table says.
      let api = FakeCatalogAPI(now: testNow)
      api.inject(fault)
      let outcome = await Result { try await call(Self.repository(over: api)) }
      guard !Self.matches(outcome.failure, expected) else { continue }
      let got = outcome.failure.map { "threw \(shown($0))" } ?? "no error"
      if let index = wrong.firstIndex(where: { $0.got == got }) {
        wrong[index].names.append(name)
      } else {
        wrong.append((got, [name], outcome))
      }
    }
    let said = wrong.map {
      "\($0.names.count == Self.calls.count ? "every call" : $0.names.joined(separator: ", ")) \($0.got)"
    }
    #expect(
      wrong.isEmpty,
      guide.task(
        task,
        "with the fault \(fault), every public repository call should throw \(Self.expectedText(expected)); \(said.joined(separator: "; "))",
        blaming: wrong.map { "\($0.outcome)" }.joined()))
  }

  @Test func aRetryAfterDateIsMeasuredOnTheServersClock() async {
    // The device's clock (testNow, 00:00:00) is an hour behind the server's, whose
    // answer says it was sent at 01:00:00 and asks to come back at 01:01:30.
    let api = FakeCatalogAPI()
    let headers = ["Retry-After": "Thu, 01 Jan 2026 01:01:30 GMT", "Date": "Thu, 01 Jan 2026 01:00:00 GMT"]
    api.inject(.status(429, headers: headers))
    let outcome = await Result { try await Self.repository(over: api).products(policy: .networkOnly) }
    #expect(
      outcome.failure as? CatalogError == .rateLimited(retryAfter: .seconds(90)),
      guide.task(
        3,
        "a 429 sent at 01:00:00 by the server's Date header, asking for 01:01:30: 90 s, measured on the server's clock, whatever the device's says (00:00:00 here); got \(brief(outcome)) (the boundary hands the Date header's time to map(status:retryAfter:now:) as now: measure from that now, never from Date())",
        blaming: outcome))
  }

  @Test func theSourceAsksTheMapperItIsGivenAboutTheStatus() async {
    // A spy in the composition root's place: the source must ask it, not a mapper it names.
    let spy = SpyErrorMapper()
    let headers = ["Retry-After": "7", "Date": "Thu, 01 Jan 2026 01:00:00 GMT", "Content-Type": "application/json"]
    let answer = CannedHTTPAnswer.Answer(
      status: 503, headers: headers, body: Data(#"{"message": "Injected failure"}"#.utf8))
    let outcome = await CannedHTTPAnswer.products(answering: answer, mapper: spy)
    let expected: [SpyErrorMapper.Question] = [
      .status(503, retryAfter: "7", now: testDate.addingTimeInterval(3_600)),
      .boundary(error: SpyErrorMapper.statusAnswer, now: testDate),
    ]
    #expect(
      outcome.failure as? CatalogError == SpyErrorMapper.boundaryAnswer && spy.questions == expected,
      guide.task(
        3,
        "finished code, the boundary: a remote source made with mapper: asks that mapper, no other. A 503 with Retry-After \"7\" and the Date 01:00:00 should ask map(status:retryAfter:now:) with the Date's time, hand its answer to catalogError(from:now:) with the injected now, and throw what that returns, \(shown(SpyErrorMapper.boundaryAnswer)); got \(brief(outcome)) after the questions \(shown(spy.questions))"
      ))
  }

  @Test func theSourceAsksTheMapperItIsGivenAboutTheBody() async {
    let spy = SpyErrorMapper()
    let answer = CannedHTTPAnswer.Answer(
      status: 200, headers: ["Content-Type": "application/json"], body: HTTPMappingTests.page)
    let outcome = await CannedHTTPAnswer.products(answering: answer, mapper: spy)
    let expected: [SpyErrorMapper.Question] = [
      .status(200, retryAfter: nil, now: testDate), .body(contentType: "application/json"),
      .boundary(error: SpyErrorMapper.bodyAnswer, now: testDate),
    ]
    #expect(
      outcome.failure as? CatalogError == SpyErrorMapper.boundaryAnswer && spy.questions == expected,
      guide.task(
        3,
        "finished code, the boundary: a remote source made with mapper: asks that mapper, no other. A 200 with a page should ask map(status:retryAfter:now:), then checkBody(_:contentType:), hand the body check's answer to catalogError(from:now:), and throw what that returns, \(shown(SpyErrorMapper.boundaryAnswer)); got \(brief(outcome)) after the questions \(shown(spy.questions))"
      ))
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
        "a page whose product has a bad \(field) decodes, and the mapper refuses it: the repository should throw .invalidData naming \"\(field)\", got \(brief(outcome))",
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
    // Finished code: the boundary turns any failure of a cancelled task into CancellationError.
    #expect(
      inFlight && outcome.failure is CancellationError,
      guide.task(
        2,
        "a request cancelled in flight (waiting on the API's latency: \(inFlight)) reaches the caller as CancellationError, got \(brief(outcome))",
        blaming: outcome))
  }

  @Test func aRequestTheSessionCancelledIsCancellationToo() async {
    // The caller's task is not cancelled: the session failed the request with
    // URLError(.cancelled) itself, as it does for a session invalidated and
    // cancelled, or an authentication challenge cancelled. Only the table says so.
    let configuration = URLSessionConfiguration.ephemeral
    configuration.protocolClasses = [SessionCancelsEveryRequest.self]
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    let remote = URLSessionProductRemoteDataSource(
      baseURL: SessionCancelsEveryRequest.baseURL, session: session, now: testNow)
    let repository = CachingProductRepository(remote: remote, store: InMemoryProductCacheStore(), now: testNow)
    let outcome = await Result { try await repository.products(policy: .networkOnly) }
    let isCancellation = outcome.failure is CancellationError
    #expect(
      isCancellation,
      guide.task(
        2,
        "a request the session failed with URLError(.cancelled), while the caller's task was not cancelled, reaches the caller as CancellationError (the table's .cancelled row), got \(brief(outcome))",
        blaming: outcome))
  }

  @Test func cacheOnlyWithNothingCachedIsACatalogError() async {
    let api = FakeCatalogAPI()
    let outcome = await Result { try await Self.repository(over: api).products(policy: .cacheOnly) }
    #expect(
      outcome.failure as? CatalogError == .nothingCached && api.requests.isEmpty,
      guide.task(
        1, "cache-only with nothing cached throws CatalogError.nothingCached without a request, got \(brief(outcome))"))
  }
}

/// Fails every request with `URLError(.cancelled)`, while the caller's task goes on.
final class SessionCancelsEveryRequest: URLProtocol {
  /// A host nothing else answers; the session reaches it only through this protocol.
  static let baseURL: URL = {
    guard let url = URL(string: "https://cancelling.test") else { preconditionFailure("a valid URL") }
    return url
  }()

  override class func canInit(with request: URLRequest) -> Bool { true }
  override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }
  override func startLoading() { client?.urlProtocol(self, didFailWithError: URLError(.cancelled)) }
  override func stopLoading() {}
}
