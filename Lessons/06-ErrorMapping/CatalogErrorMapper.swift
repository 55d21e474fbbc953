import CourseSQLite
import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns the data layer's failures into `CatalogError`, one table per source:
/// `URLError` codes, HTTP statuses and bodies, `DecodingError`, SQLite result codes.
///
/// It is the boundary: the data sources call it, and nothing above them sees
/// what it maps from. Cancellation is never mapped: it leaves as `CancellationError`.
enum CatalogErrorMapper {
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
    // TODO: Task 2. Switch over error.code as the table above says; throw
    // CancellationError() for .cancelled.
    throw NotDoneYet(
      "Task 2", in: "Docs/06-ErrorMapping.md", "map(_: URLError) should map URLError code \(error.code.rawValue)")
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
  static func map(status: Int, retryAfter: String?, now: Date) -> CatalogError? {
    // TODO: Task 3. Switch over status as the list above says; read the
    // Retry-After header with Self.retryAfter(retryAfter, now: now) for 429 and
    // 5xx (write `Self.`: here the parameter retryAfter hides the function).
    .invalidData(
      NotDoneYet("Task 3", in: "Docs/06-ErrorMapping.md", "map(status:retryAfter:now:) should map status \(status)")
        .description)
  }

  /// How long a `Retry-After` header asks to wait, from `now`.
  ///
  /// The header is a number of seconds (`120`) or an HTTP-date
  /// (`Wed, 21 Oct 2026 07:28:00 GMT`). A malformed value, a negative number or a
  /// date that is not after `now` gives `nil`: no advice, so the retry policy's
  /// own backoff decides. A wait too large to represent, or past
  /// `longestRetryAfter`, is `longestRetryAfter`: very long, not "no advice".
  ///
  /// - Parameter now: When the server sent the answer: its `Date` header when it
  ///   has one (the boundary reads it), so a date is measured on the server's clock.
  static func retryAfter(_ value: String?, now: Date) -> Duration? {
    // TODO: Task 3. Digits only, spaces around them ignored: that many seconds, and
    // longestRetryAfter for more (Int64(text) fails for a number too large). Otherwise
    // an HTTP-date through httpDate(_:), measured from now, in whole milliseconds
    // rounded up, at most longestRetryAfter. Anything else, or a date not after now: nil.
    nil
  }

  /// The longest wait a `Retry-After` is read as: a year. A server that asks for
  /// longer, or for more seconds than a number can hold, asks for "very long",
  /// which ends the retries like any wait past `RetryPolicy.maxRetryAfter`.
  static let longestRetryAfter = Duration.seconds(365 * 86_400)

  /// Parses the three forms of an HTTP-date (RFC 9110, section 5.6.7), as in
  /// `Retry-After` and in a response's `Date`.
  static func httpDate(_ text: String) -> Date? {
    for format in ["EEE, dd MMM yyyy HH:mm:ss 'GMT'", "EEEE, dd-MMM-yy HH:mm:ss 'GMT'", "EEE MMM d HH:mm:ss yyyy"] {
      let formatter = DateFormatter()
      formatter.locale = Locale(identifier: "en_US_POSIX")
      formatter.timeZone = TimeZone(identifier: "GMT")
      formatter.dateFormat = format
      if let date = formatter.date(from: text) { return date }
    }
    return nil
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
  static func checkBody(_ body: Data, contentType: String?) -> CatalogError? {
    // TODO: Task 3. Find the first byte that is not whitespace (none: empty). "<" or
    // a text/html media type: .offline. Another media type than application/json
    // or one ending in +json: .invalidData. Compare media types without parameters
    // (the part before ";") and without case.
    .invalidData(
      NotDoneYet(
        "Task 3", in: "Docs/06-ErrorMapping.md",
        "checkBody(_:contentType:) should tell JSON from HTML, empty and other bodies"
      ).description)
  }

  // MARK: Task 4: map decoding and storage failures

  /// The domain error for a body that did not decode, naming where it failed,
  /// such as `products[3].price: expected Decimal`.
  static func map(_ error: DecodingError) -> CatalogError {
    // TODO: Task 4. Switch over the four cases; start each text with the coding
    // path from path(_:) (for keyNotFound, the path and then the missing key).
    // A dataCorrupted with an empty path is a body that is not JSON at all.
    .invalidData(
      NotDoneYet("Task 4", in: "Docs/06-ErrorMapping.md", "map(_: DecodingError) should name the coding path")
        .description)
  }

  /// A coding path as a reader writes it: `products[3].meta.updatedAt`.
  static func path(_ codingPath: [any CodingKey]) -> String {
    // TODO: Task 4. An intValue key is "[3]"; a string key is ".price", without
    // the dot at the start. An empty path: a few words such as "the body".
    NotDoneYet(
      "Task 4", in: "Docs/06-ErrorMapping.md", "path(_:) should write the coding path \(codingPath.count) key(s) long"
    )
    .description
  }

  /// The domain error for a failed SQLite call, by its result code.
  ///
  /// `.busy` and `.locked`: `.busy`; `.full`: `.full`; `.corrupt` and
  /// `.notADatabase`: `.damaged`; `.constraint`: `.refused`; anything else: `.unavailable`.
  static func map(_ error: SQLiteError) -> CatalogError {
    // TODO: Task 4. Switch over error.code (.busy, .full, …), as the list above says.
    .invalidData(
      NotDoneYet("Task 4", in: "Docs/06-ErrorMapping.md", "map(_: SQLiteError) should map \(error.code)").description)
  }

  // MARK: The boundary, finished

  /// The domain error for anything a data source threw.
  ///
  /// - Parameters:
  ///   - error: What the data layer threw.
  ///   - now: The wall-clock time, for a `Retry-After` date.
  /// - Throws: `CancellationError` when `error` is a cancellation, in any form.
  static func catalogError(from error: any Error, now: Date) throws -> CatalogError {
    switch error {
    case let error as CatalogError: return error
    case is CancellationError: throw error
    case let error as URLError: return try map(error)
    case let error as DecodingError: return map(error)
    case let error as SQLiteError: return map(error)
    case let error as LocalDataSourceError: return map(error)
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
  private static func map(_ error: RemoteDataSourceError, now: Date) -> CatalogError {
    switch error {
    case .offline, .transport: .offline
    case .http(let status, _): map(status: status, retryAfter: nil, now: now) ?? .invalidData("status \(status)")
    case .notHTTP: .invalidData("the answer was not an HTTP response")
    case .invalidRequest(let what), .decoding(let what), .invalidData(let what): .invalidData(what)
    }
  }
}
