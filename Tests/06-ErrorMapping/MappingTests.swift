import CourseFixtures
import CourseSQLite
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

/// Task 1: each domain error says whether sending the request again can help.
@Suite(.timeLimit(.minutes(1)))
struct CatalogErrorTests {
  static let retryable: [(CatalogError, Bool)] = [
    (.offline, true),
    (.timedOut, true),
    (.connectionLost, true),
    (.rateLimited(retryAfter: nil), true),
    (.rateLimited(retryAfter: .seconds(5)), true),
    (.server(status: 500), true),
    (.server(status: 502), true),
    (.server(status: 503, retryAfter: .seconds(2)), true),
    (.server(status: 504), true),
    (.storage(.busy), true),
    (.server(status: 501), false),
    (.server(status: 505), false),
    (.insecureConnection, false),
    (.notFound, false),
    (.unauthorized, false),
    (.rejected(status: 409), false),
    (.rejected(status: 422), false),
    (.invalidData("products[0].price: expected Decimal"), false),
    (.storage(.full), false),
    (.storage(.damaged), false),
    (.storage(.refused), false),
    (.nothingCached, false),
  ]

  @Test(arguments: retryable)
  func saysWhetherRetryingCanHelp(error: CatalogError, expected: Bool) {
    #expect(
      error.isRetryable == expected,
      guide.task(1, "\(error).isRetryable should be \(expected), got \(error.isRetryable)"))
  }

  /// Whether saved products may stand in for the answer: never for a refusal.
  static let standsIn: [(CatalogError, Bool, String)] = [
    (.offline, true, "the catalog was not reached"),
    (.timedOut, true, "the catalog was too slow"),
    (.connectionLost, true, "the answer was cut short"),
    (.insecureConnection, true, "the network can't be trusted, what was saved can"),
    (.rateLimited(retryAfter: .seconds(5)), true, "the catalog asked for patience"),
    (.server(status: 503), true, "the catalog failed"),
    (.server(status: 501), true, "the catalog failed, the same way every time"),
    (.invalidData("products[0].price: expected Decimal"), true, "the catalog sent something that is not an answer"),
    (.unauthorized, false, "401 or 403: this person may not see the catalog now"),
    (.notFound, false, "404: the product is gone"),
    (.rejected(status: 422), false, "422: the request is refused"),
    (.rejected(status: 400), false, "400: the request is refused"),
  ]

  @Test(arguments: standsIn)
  func saysWhetherSavedProductsMayStandIn(error: CatalogError, expected: Bool, why: String) {
    #expect(
      error.allowsCachedFallback == expected,
      guide.task(
        1,
        "\(error).allowsCachedFallback should be \(expected) (\(why)): a refusal is an answer that saved products must not contradict; got \(error.allowsCachedFallback)"
      ))
  }
}

/// Task 2: every URLError code the app can meet has one domain error; cancellation stays cancellation.
@Suite(.timeLimit(.minutes(1)))
struct URLErrorMappingTests {
  static let table: [(String, URLError.Code, CatalogError)] = [
    ("notConnectedToInternet", .notConnectedToInternet, .offline),
    ("cannotFindHost", .cannotFindHost, .offline),
    ("cannotConnectToHost", .cannotConnectToHost, .offline),
    ("dnsLookupFailed", .dnsLookupFailed, .offline),
    ("internationalRoamingOff", .internationalRoamingOff, .offline),
    ("dataNotAllowed", .dataNotAllowed, .offline),
    ("callIsActive", .callIsActive, .offline),
    ("timedOut", .timedOut, .timedOut),
    ("secureConnectionFailed", .secureConnectionFailed, .insecureConnection),
    ("serverCertificateUntrusted", .serverCertificateUntrusted, .insecureConnection),
    ("serverCertificateHasBadDate", .serverCertificateHasBadDate, .insecureConnection),
    ("serverCertificateHasUnknownRoot", .serverCertificateHasUnknownRoot, .insecureConnection),
    ("serverCertificateNotYetValid", .serverCertificateNotYetValid, .insecureConnection),
    ("clientCertificateRejected", .clientCertificateRejected, .insecureConnection),
    ("clientCertificateRequired", .clientCertificateRequired, .insecureConnection),
    ("userAuthenticationRequired", .userAuthenticationRequired, .unauthorized),
    ("userCancelledAuthentication", .userCancelledAuthentication, .unauthorized),
  ]

  @Test(arguments: table)
  func mapsEachCode(name: String, code: URLError.Code, expected: CatalogError) {
    let outcome = Result { try Mapper.boundary(URLError(code)) }
    #expect(
      (try? outcome.get()) == expected,
      guide.task(2, "URLError(.\(name)) should map to .\(expected), got \(outcome)", blaming: outcome))
  }

  /// A connection cut short, as each Foundation reports it: Apple's says
  /// networkConnectionLost; swift-corelibs-foundation says unknown (-1) or
  /// badServerResponse (-1011) for a body cut short, an empty reply or a reset.
  static let lostConnections: [(String, URLError.Code)] = [
    ("networkConnectionLost (Apple)", .networkConnectionLost),
    ("unknown (Linux: a body cut short)", .unknown),
    ("badServerResponse (Linux: an empty reply or a reset)", .badServerResponse),
  ]

  @Test(arguments: lostConnections)
  func aConnectionCutShortIsLostOnEveryPlatform(name: String, code: URLError.Code) {
    let outcome = Result { try Mapper.boundary(URLError(code)) }
    #expect(
      (try? outcome.get()) == .connectionLost,
      guide.task(
        2,
        "URLError code \(code.rawValue), \(name), is a connection that closed before the answer was complete: .connectionLost, which a retry may cure, not .invalidData; got \(outcome)",
        blaming: outcome))
  }

  @Test(arguments: [URLError.Code.cannotParseResponse, .zeroByteResource, .badURL])
  func aResponseTheAppCannotUseIsInvalidData(code: URLError.Code) {
    let outcome = Result { try Mapper.boundary(URLError(code)) }
    let isInvalidData =
      if case .invalidData(let text)? = try? outcome.get() { !text.contains("Not done yet") } else { false }
    #expect(
      isInvalidData,
      guide.task(2, "URLError code \(code.rawValue) should map to .invalidData, got \(outcome)", blaming: outcome))
  }

  @Test func cancelledStaysCancellation() {
    let outcome = Result { try Mapper.boundary(URLError(.cancelled)) }
    #expect(
      outcome.failure is CancellationError,
      guide.task(
        2, "URLError(.cancelled) is not a failure: catalogError(from:now:) throws CancellationError, got \(outcome)",
        blaming: outcome))
  }

  /// What the boundary may be handed that needs no table: an error already mapped, and a cancellation.
  static let alreadyMapped: [(String, any Error & Sendable, CatalogError?)] = [
    ("CatalogError.notFound", CatalogError.notFound, .notFound),
    (
      "CatalogError.rateLimited(retryAfter: 5 s)", CatalogError.rateLimited(retryAfter: .seconds(5)),
      .rateLimited(retryAfter: .seconds(5))
    ),
    ("CancellationError()", CancellationError(), nil),
  ]

  @Test(arguments: alreadyMapped)
  func aMappedErrorStaysAsItIsAndCancellationStaysCancellation(
    name: String, error: any Error & Sendable, expected: CatalogError?
  ) {
    let outcome = Result { try Mapper.boundary(error) }
    let right = expected.map { (try? outcome.get()) == $0 } ?? (outcome.failure is CancellationError)
    #expect(
      right,
      guide.task(
        2,
        "catalogError(from: \(name)) should \(expected.map { "give it back as it is, \(shown($0))" } ?? "throw CancellationError"): the finished remote source hands the boundary the CatalogErrors of your HTTP table too; got \(said(outcome))",
        blaming: outcome))
  }
}

/// Task 3: statuses, Retry-After in both forms, and bodies that are not JSON, each
/// as an HTTP answer the finished remote source receives (`CannedHTTPAnswer`).
@Suite(.timeLimit(.minutes(1)))
struct HTTPMappingTests {
  /// A one-product page the contract promises, as a body.
  static let page: Data = {
    guard let record = try? JSONSerialization.jsonObject(with: JSONEncoderless.firstRecord),
      let body = try? JSONSerialization.data(
        withJSONObject: [
          "products": [record], "total": 1, "skip": 0, "limit": 30,
        ] as [String: Any])
    else { preconditionFailure("the first fixture record makes a page") }
    return body
  }()

  /// What the remote source gave, in a message: "1 product", or "threw …".
  static func gave(_ outcome: Result<ProductPage, any Error>) -> String {
    switch outcome {
    case .success(let page): "\(page.products.count) product(s)"
    case .failure(let error): "threw \(shown(error))"
    }
  }

  /// An error answer, as the Catalog API sends one: JSON with a message.
  static func answer(status: Int, retryAfter: String? = nil) -> CannedHTTPAnswer.Answer {
    var headers = ["Content-Type": "application/json"]
    headers["Retry-After"] = retryAfter
    return .init(status: status, headers: headers, body: Data(#"{"message": "Injected failure"}"#.utf8))
  }

  static let statuses: [(Int, CatalogError?)] = [
    (200, nil),
    (400, .rejected(status: 400)),
    (401, .unauthorized), (403, .unauthorized),
    (404, .notFound), (410, .notFound),
    (408, .timedOut),
    (409, .rejected(status: 409)),
    (418, .rejected(status: 418)),
    (422, .rejected(status: 422)),
    (429, .rateLimited(retryAfter: nil)),
    (500, .server(status: 500)), (501, .server(status: 501)), (502, .server(status: 502)),
    (503, .server(status: 503)), (504, .server(status: 504)), (599, .server(status: 599)),
  ]

  @Test(arguments: statuses)
  func mapsEachStatus(status: Int, expected: CatalogError?) async {
    var answer = Self.answer(status: status)
    if expected == nil { answer.body = Self.page }
    let outcome = await CannedHTTPAnswer.products(answering: answer)
    let right = expected.map { outcome.failure as? CatalogError == $0 } ?? ((try? outcome.get()) != nil)
    #expect(
      right,
      guide.task(
        3,
        "an answer with status \(status) and no Retry-After should \(expected.map { "throw \(shown($0))" } ?? "go on to the body and decode: 1 product"); got \(Self.gave(outcome))",
        blaming: outcome))
  }

  /// `now` + 90 s as an HTTP-date, in each of the three forms RFC 9110 allows.
  static let in90Seconds = "Thu, 01 Jan 2026 00:01:30 GMT"

  static let retryAfters: [(String?, Duration?, String)] = [
    ("120", .seconds(120), "delta seconds"),
    ("0", .zero, "zero seconds: try again now"),
    (" 7 ", .seconds(7), "delta seconds with spaces around"),
    (in90Seconds, .seconds(90), "an HTTP-date 90 s after now"),
    ("Thursday, 01-Jan-26 00:01:30 GMT", .seconds(90), "the obsolete RFC 850 date form"),
    ("Wed, 31 Dec 2025 23:59:00 GMT", nil, "a date in the past: no advice"),
    ("Thu, 01 Jan 2026 00:00:00 GMT", nil, "a date equal to now: no advice"),
    ("soon", nil, "malformed"),
    ("-5", nil, "a negative number"),
    ("1.5", nil, "a fraction"),
    ("", nil, "empty"),
    ("99999999999999999999999", CatalogError.longestRetryAfter, "too large for Int64: very long, not no advice"),
    (
      "9223372036854775807", CatalogError.longestRetryAfter, "Int64.max seconds: past the longest wait, very long"
    ),
    ("Fri, 31 Dec 9999 23:59:59 GMT", CatalogError.longestRetryAfter, "a date in the year 9999: very long"),
    (nil, nil, "no header"),
  ]

  @Test(arguments: retryAfters)
  func readsRetryAfterOn429(header: String?, expected: Duration?, what: String) async {
    // No Date header: the finished source measures a date from the injected now, testDate.
    let outcome = await CannedHTTPAnswer.products(answering: Self.answer(status: 429, retryAfter: header))
    let mapped = outcome.failure as? CatalogError
    // A date after `now` that gives no wait, or a wait below zero or a day off, was
    // most likely measured against Date(), whatever today is.
    let measuredAgainstToday: Bool =
      switch mapped {
      case .rateLimited(let wait) where what.contains("date") && expected != nil:
        wait.map { $0 < .zero || abs(($0 - expected!).components.seconds) > 86_400 } ?? true
      default: false
      }
    let clockNote =
      measuredAgainstToday
      ? " (measure the date against the now you are handed, not Date(); the finished HTTPDate.parse(_:) reads it)" : ""
    #expect(
      mapped == .rateLimited(retryAfter: expected),
      guide.task(
        3,
        "429 with Retry-After \(header.map { "\"\($0)\"" } ?? "missing") (\(what)), now \(testDate): expected .rateLimited(retryAfter: \(String(describing: expected))), got \(Self.gave(outcome))\(clockNote)",
        blaming: outcome))
  }

  @Test func readsRetryAfterOn503Too() async {
    let outcome = await CannedHTTPAnswer.products(answering: Self.answer(status: 503, retryAfter: "30"))
    #expect(
      outcome.failure as? CatalogError == .server(status: 503, retryAfter: .seconds(30)),
      guide.task(
        3,
        "503 with Retry-After \"30\" should keep the wait: .server(status: 503, retryAfter: 30 s), got \(Self.gave(outcome))",
        blaming: outcome))
  }

  /// A body, its Content-Type, and what the answer must become; `nil` for the body is the page the contract promises.
  static let bodies: [(String?, String?, String)] = [
    ("<html><body>Wi-Fi login required</body></html>", "text/html; charset=utf-8", "offline"),
    ("<!DOCTYPE html><html></html>", "application/json", "offline"),
    ("\n  <html></html>", nil, "offline"),
    (nil, "text/html", "offline"),
    ("", "application/json", "invalidData"),
    ("   \n", "application/json", "invalidData"),
    (nil, "text/plain", "invalidData"),
    (nil, "application/xml; charset=utf-8", "invalidData"),
    (nil, "application/json; charset=utf-8", "json"),
    (nil, "APPLICATION/JSON", "json"),
    (nil, "application/vnd.catalog+json", "json"),
    (nil, nil, "json"),
  ]

  @Test(arguments: bodies)
  func tellsJSONFromAPageThatIsNot(body: String?, contentType: String?, expected: String) async {
    var headers: [String: String] = [:]
    headers["Content-Type"] = contentType
    let outcome = await CannedHTTPAnswer.products(
      answering: .init(status: 200, headers: headers, body: body.map { Data($0.utf8) } ?? Self.page))
    let kind =
      switch outcome {
      case .success: "json"
      case .failure(CatalogError.offline): "offline"
      case .failure(CatalogError.invalidData(let text)) where !text.contains("Not done yet"): "invalidData"
      case .failure(let error): "\(error)"
      }
    let why =
      switch expected {
      case "offline": "an HTML page where JSON was promised is a captive portal or a proxy: .offline"
      case "invalidData": "a body that is empty, or of another type than JSON, is .invalidData"
      default: "JSON, whatever the case or parameters of its type, is decoded: 1 product"
      }
    #expect(
      kind == expected,
      guide.task(
        3,
        "a 200 with \(body.map { "body \($0.debugDescription)" } ?? "a page of the catalog") and Content-Type \(contentType ?? "none"): \(why); got \(Self.gave(outcome))",
        blaming: outcome))
  }
}

/// Task 4: a body that did not decode names where; SQLite result codes become storage failures.
@Suite(.timeLimit(.minutes(1)))
struct DecodingAndStorageMappingTests {
  /// Decodes `json` as a page and maps the decoding error.
  func mapDecoding(_ json: String) throws -> Result<CatalogError, any Error> {
    let decoded = Result { try JSONDecoder.catalog().decode(ProductPageDTO.self, from: Data(json.utf8)) }
    let error = try #require(decoded.failure as? DecodingError, "the JSON \(json) should not decode")
    return Result { try Mapper.boundary(error) }
  }

  static let pages: [(String, String)] = [
    (#"{"products": [], "total": 0, "skip": 0, "limit": "thirty"}"#, "limit"),
    (#"{"total": 0, "skip": 0, "limit": 30}"#, "products"),
    (#"{"products": [{"id": 1}], "total": 1, "skip": 0, "limit": 30}"#, "products[0].title"),
    (#"{"products": [], "total": null, "skip": 0, "limit": 30}"#, "total"),
  ]

  @Test(arguments: pages)
  func namesWhereTheBodyWentWrong(json: String, path: String) throws {
    let outcome = try mapDecoding(json)
    let text = if case .invalidData(let text)? = try? outcome.get() { text } else { "" }
    #expect(
      text.hasPrefix(path) && !text.contains("Not done yet"),
      guide.task(
        4, "the body \(json) should map to .invalidData starting with its coding path \"\(path)\", got \(outcome)",
        blaming: outcome))
  }

  @Test func namesANestedFieldWithItsIndex() throws {
    var record = try #require(
      try JSONSerialization.jsonObject(with: JSONEncoderless.firstRecord) as? [String: Any])
    record["price"] = "free"
    let body = try JSONSerialization.data(withJSONObject: [
      "products": [record, record], "total": 2, "skip": 0, "limit": 30,
    ])
    let outcome = try mapDecoding(String(decoding: body, as: UTF8.self))
    let text = if case .invalidData(let text)? = try? outcome.get() { text } else { "" }
    #expect(
      text.hasPrefix("products[0].price"),
      guide.task(
        4,
        "a price of \"free\" in the first product should map to .invalidData starting with \"products[0].price\", got \(outcome)",
        blaming: outcome))
  }

  @Test func malformedJSONIsInvalidData() throws {
    let outcome = try mapDecoding(#"{"products": [{"id": 1,"#)
    let isInvalid =
      if case .invalidData(let text)? = try? outcome.get() { !text.contains("Not done yet") } else { false }
    #expect(isInvalid, guide.task(4, "a truncated body should map to .invalidData, got \(outcome)", blaming: outcome))
  }

  static let codes: [(SQLiteResultCode, CatalogError)] = [
    (.busy, .storage(.busy)),
    (.locked, .storage(.busy)),
    (.full, .storage(.full)),
    (.corrupt, .storage(.damaged)),
    (.notADatabase, .storage(.damaged)),
    (.constraint, .storage(.refused)),
    (.ioerr, .storage(.unavailable)),
    (.cantOpen, .storage(.unavailable)),
  ]

  @Test(arguments: codes)
  func mapsEachSQLiteCode(code: SQLiteResultCode, expected: CatalogError) {
    let outcome = Result { try Mapper.boundary(SQLiteError(code: code, message: "injected")) }
    #expect(
      (try? outcome.get()) == expected,
      guide.task(4, "an SQLite error \(code) should map to \(expected), got \(said(outcome))", blaming: outcome))
  }

  @Test func aRealConstraintFailureIsRefusedStorage() throws {
    let database = try SQLiteConnection(path: ":memory:")
    _ = try database.migrate(SQLiteProductLocalDataSource.migrations)
    var broken = firstPage[0]
    broken.stock = -1
    let saved = Result { try database.prepare(SQLiteProductLocalDataSource.upsert).run(ProductRow(broken).values) }
    let error = try #require(
      saved.failure as? SQLiteError, "a negative stock must break the CHECK constraint, got \(saved)")
    let outcome = Result { try Mapper.boundary(error) }
    #expect(
      (try? outcome.get()) == .storage(.refused),
      guide.task(
        4, "SQLite's own CHECK failure (\(error.code)) should map to .storage(.refused), got \(said(outcome))",
        blaming: outcome))
  }

  @Test func theStoresOwnErrorsAreStorageFailures() async throws {
    let store = try SQLiteProductLocalDataSource(path: ":memory:")
    var negative = firstPage[0]
    negative.price = -1
    let saved = await Result { try await store.save([negative]) }
    var row = ProductRow(firstPage[0])
    row.price = "12abc"
    let read = Result { try row.toDomain() }
    let unsavable = try #require(
      saved.failure as? LocalDataSourceError, "save(_:) must refuse a price of -1, got \(saved)")
    let corrupt = try #require(
      read.failure as? LocalDataSourceError, "a stored price of \"12abc\" must not read back, got \(read)")
    let mapped = [unsavable, corrupt].map { error in Result { try Mapper.boundary(error) } }
    #expect(
      mapped.map { try? $0.get() } == [.storage(.refused), .storage(.damaged)],
      guide.task(
        4,
        "the store's own errors are storage failures: \(unsavable) is refused, \(corrupt) is damaged; got \(mapped.map(said))",
        blaming: mapped))
  }
}

extension DecodingAndStorageMappingTests {
  /// The data layer's own errors, from stages 02–05: what the DTO mapper and the
  /// endpoint builder throw reaches the boundary as `RemoteDataSourceError`.
  static let dataLayerErrors: [(RemoteDataSourceError, String)] = [
    (.invalidData("product 1: price -1 is not an amount of money"), "product 1: price -1 is not an amount of money"),
    (.invalidRequest("the endpoint /products?limit=-1 is not a URL"), "the endpoint /products?limit=-1 is not a URL"),
  ]

  @Test(arguments: dataLayerErrors)
  func theDataLayersOwnErrorsKeepTheirText(error: RemoteDataSourceError, text: String) {
    let outcome = Result { try Mapper.boundary(error) }
    let kept = if case .invalidData(let got)? = try? outcome.get() { got.contains(text) } else { false }
    #expect(
      kept,
      guide.task(
        4,
        "catalogError(from: \(error)) should be .invalidData keeping its text for the logs (\"\(text)\"), got \(said(outcome))",
        blaming: outcome))
  }
}

/// The first fixture record, as JSON bytes.
enum JSONEncoderless {
  static let firstRecord: Data = {
    guard let records = try? JSONSerialization.jsonObject(with: ProductFixtures.data) as? [Any],
      let first = records.first, let data = try? JSONSerialization.data(withJSONObject: first)
    else { preconditionFailure("the fixture records are a JSON array") }
    return data
  }()
}
