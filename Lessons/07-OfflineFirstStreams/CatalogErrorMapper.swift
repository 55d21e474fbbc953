import CourseSQLite
import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns the data layer's failures into `CatalogError`, one table per source:
/// `URLError` codes, HTTP statuses and bodies, `DecodingError`, SQLite result codes.
///
/// It is the boundary: the data sources call it, and nothing above them sees
/// what it maps from. Cancellation is never mapped: it leaves as `CancellationError`.
///
/// A value with no state: `AppDependencies.errorMapper()` makes one for the
/// remote source and `live()`. The protocol's three requirements are its
/// instance methods; each table is a static function, so code that knows which
/// table it needs (stage 07's engine, mapping its store's errors) calls
/// `CatalogErrorMapper.map(error)` without making one.
nonisolated struct CatalogErrorMapper: CatalogErrorMapping {
  // MARK: Task 2: map transport failures

  /// The domain error for a failed request.
  ///
  /// | `URLError.Code` | `CatalogError` |
  /// |---|---|
  /// | `notConnectedToInternet`, `cannotFindHost`, `cannotConnectToHost`, `dnsLookupFailed`, `internationalRoamingOff`, `dataNotAllowed`, `callIsActive` | `.offline` |
  /// | `timedOut` | `.timedOut` |
  /// | `networkConnectionLost`, `unknown`, `badServerResponse` | `.connectionLost` |
  /// | `secureConnectionFailed`, `serverCertificate…`, `clientCertificate…` | `.insecureConnection` |
  /// | `userAuthenticationRequired`, `userCancelledAuthentication` | `.unauthorized` |
  /// | `cannotParseResponse`, `zeroByteResource`, `cannotDecode…`, anything else | `.invalidData` |
  ///
  /// A connection cut short is reported differently by each Foundation: Apple's
  /// says `networkConnectionLost`; swift-corelibs-foundation, on Linux, says
  /// `unknown` (-1) or `badServerResponse` (-1011) for a body cut short, an empty
  /// reply or a reset. All three are a lost connection, which a retry may cure.
  ///
  /// - Throws: `CancellationError` for `.cancelled`: cancellation is not a failure.
  static func map(_ error: URLError) throws -> CatalogError {
    switch error.code {
    case .cancelled:
      throw CancellationError()
    case .notConnectedToInternet, .cannotFindHost, .cannotConnectToHost, .dnsLookupFailed, .internationalRoamingOff,
      .dataNotAllowed, .callIsActive:
      return .offline
    case .timedOut:
      return .timedOut
    case .networkConnectionLost, .unknown, .badServerResponse:
      return .connectionLost
    case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
      .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid, .clientCertificateRejected,
      .clientCertificateRequired:
      return .insecureConnection
    case .userAuthenticationRequired, .userCancelledAuthentication:
      return .unauthorized
    default:
      return .invalidData("the request failed with URLError code \(error.code.rawValue)")
    }
  }

  // MARK: Task 3: map HTTP answers

  /// The domain error for an HTTP status, or `nil` for a success (2xx).
  ///
  /// 401 and 403: `.unauthorized`; 404 and 410: `.notFound`; 408: `.timedOut`;
  /// 429: `.rateLimited` with the `Retry-After` header; any other 4xx:
  /// `.rejected`; 5xx: `.server` with the `Retry-After` header; anything else
  /// (a 1xx or 3xx URLSession did not handle): `.invalidData`.
  /// - Parameters:
  ///   - status: The response's status code.
  ///   - retryAfter: The `Retry-After` header, if any.
  ///   - now: The wall-clock time the response arrived, to measure an HTTP-date.
  func map(status: Int, retryAfter: String?, now: Date) -> CatalogError? {
    switch status {
    case 200..<300: nil
    case 401, 403: .unauthorized
    case 404, 410: .notFound
    case 408: .timedOut
    case 429: .rateLimited(retryAfter: Self.retryAfter(retryAfter, now: now))
    case 400..<500: .rejected(status: status)
    case 500..<600: .server(status: status, retryAfter: Self.retryAfter(retryAfter, now: now))
    default: .invalidData("the catalog answered with the unexpected status \(status)")
    }
  }

  /// How long a `Retry-After` header asks to wait, from `now`.
  ///
  /// The header is a number of seconds (`120`) or an HTTP-date
  /// (`Wed, 21 Oct 2026 07:28:00 GMT`). A malformed value, a negative number or a
  /// date that is not after `now` gives `nil`: no advice, so the retry policy's
  /// own backoff decides. A wait too large to represent, or past
  /// `CatalogError.longestRetryAfter`, is that: very long, not "no advice".
  ///
  /// - Parameter now: When the server sent the answer: its `Date` header when it
  ///   has one (the boundary reads it), so a date is measured on the server's clock.
  static func retryAfter(_ value: String?, now: Date) -> Duration? {
    guard let text = value?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
    let longest = CatalogError.longestRetryAfter
    if text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) {
      // Only digits: Int64 fails only for a number too large for it.
      guard let seconds = Int64(text), seconds < longest.components.seconds else { return longest }
      return .seconds(seconds)
    }
    guard let date = HTTPDate.parse(text) else { return nil }
    let wait = date.timeIntervalSince(now)
    guard wait > 0 else { return nil }
    guard wait < Double(longest.components.seconds) else { return longest }
    return .milliseconds(Int64((wait * 1_000).rounded(.up)))
  }

  /// The domain error for a successful answer whose body is not the JSON the
  /// endpoint promises, or `nil` when it may be JSON.
  ///
  /// An HTML page is what a captive portal (a Wi-Fi login page) or a proxy answers
  /// in the catalog's place: the device has a network but not the internet, so
  /// it is `.offline`. An empty body, or another type, is `.invalidData`.
  /// - Parameters:
  ///   - body: The response body.
  ///   - contentType: The `Content-Type` header, if any.
  func checkBody(_ body: Data, contentType: String?) -> CatalogError? {
    // JSON's whitespace: space, tab, line feed, carriage return.
    guard let first = body.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) else {
      return .invalidData("the body is empty where JSON was promised")
    }
    let mediaType = contentType?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
    if first == UInt8(ascii: "<") || mediaType == "text/html" { return .offline }
    if let mediaType, mediaType != "application/json", !mediaType.hasSuffix("+json") {
      return .invalidData("the body is \(mediaType) where JSON was promised")
    }
    return nil
  }

  // MARK: Task 4: map decoding and storage failures

  /// The domain error for a body that did not decode, naming where it failed,
  /// such as `products[3].price: expected Decimal`.
  static func map(_ error: DecodingError) -> CatalogError {
    switch error {
    case .keyNotFound(let key, let context):
      .invalidData("\(path(context.codingPath + [key])): missing")
    case .typeMismatch(let type, let context):
      .invalidData("\(path(context.codingPath)): expected \(type)")
    case .valueNotFound(let type, let context):
      .invalidData("\(path(context.codingPath)): null where \(type) was expected")
    case .dataCorrupted(let context) where context.codingPath.isEmpty:
      .invalidData("the body is not valid JSON")
    case .dataCorrupted(let context):
      .invalidData("\(path(context.codingPath)): \(context.debugDescription)")
    @unknown default:
      .invalidData("the body did not decode: \(error)")
    }
  }

  /// A coding path as a reader writes it: `products[3].meta.updatedAt`.
  static func path(_ codingPath: [any CodingKey]) -> String {
    var text = ""
    for key in codingPath {
      if let index = key.intValue {
        text += "[\(index)]"
      } else {
        text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
      }
    }
    return text.isEmpty ? "the body" : text
  }

  /// The domain error for a failed SQLite call, by its result code.
  ///
  /// `.busy` and `.locked`: `.busy`; `.full`: `.full`; `.corrupt` and
  /// `.notADatabase`: `.damaged`; `.constraint`: `.refused`; anything else: `.unavailable`.
  static func map(_ error: SQLiteError) -> CatalogError {
    switch error.code {
    case .busy, .locked: .storage(.busy)
    case .full: .storage(.full)
    case .corrupt, .notADatabase: .storage(.damaged)
    case .constraint: .storage(.refused)
    default: .storage(.unavailable)
    }
  }

  // MARK: The boundary, finished

  /// The domain error for anything a data source threw.
  ///
  /// - Parameters:
  ///   - error: What the data layer threw.
  ///   - now: The wall-clock time, for a `Retry-After` date.
  /// - Throws: `CancellationError` when `error` is a cancellation, in any form.
  func catalogError(from error: any Error, now: Date) throws -> CatalogError {
    switch error {
    case let error as CatalogError: return error
    case is CancellationError: throw error
    case let error as URLError: return try Self.map(error)
    case let error as DecodingError: return Self.map(error)
    case let error as SQLiteError: return Self.map(error)
    case let error as LocalDataSourceError: return Self.map(error)
    case let error as RemoteDataSourceError: return map(error, now: now)
    default: return .invalidData("\(error)")
    }
  }

  /// The local store's own errors, from stages 04–05: a stored row that is not a
  /// product is damaged storage; a product the store won't save is refused, as a
  /// constraint refuses a row.
  static func map(_ error: LocalDataSourceError) -> CatalogError {
    switch error {
    case .corruptRow: .storage(.damaged)
    case .unsavable: .storage(.refused)
    }
  }

  /// The data layer's own errors, from stages 02–05.
  private func map(_ error: RemoteDataSourceError, now: Date) -> CatalogError {
    switch error {
    case .offline, .transport: .offline
    case .http(let status, _): map(status: status, retryAfter: nil, now: now) ?? .invalidData("status \(status)")
    case .notHTTP: .invalidData("the answer was not an HTTP response")
    case .invalidRequest(let what), .decoding(let what), .invalidData(let what): .invalidData(what)
    }
  }
}
