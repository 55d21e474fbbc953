import CourseSQLite
import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Turns the data layer's failures into `CatalogError`: `URLError` codes, HTTP
/// statuses and bodies, `DecodingError`, SQLite result codes, and the data
/// layer's own errors.
///
/// It is the boundary: the data sources call it, and nothing above them sees
/// what it maps from. Cancellation is never mapped: it leaves as `CancellationError`.
///
/// How the tables are split inside is yours to design (Docs/06-ErrorMapping.md,
/// "Your decisions"); the tests reach them through `catalogError(from:now:)` and
/// through the remote source, never through a helper of yours.
enum CatalogErrorMapper {
  // MARK: Tasks 2 and 4: the boundary

  /// The domain error for anything a data source threw.
  ///
  /// - Parameters:
  ///   - error: What the data layer threw.
  ///   - now: The wall-clock time, for a `Retry-After` date.
  /// - Throws: `CancellationError` when `error` is a cancellation, in any form.
  static func catalogError(from error: any Error, now: Date) throws -> CatalogError {
    // TODO: Tasks 2 and 4. Whatever a data source threw, as the app's error: the
    // tables of Docs/06-ErrorMapping.md, "The mapping tables".
    let task =
      switch error {
      case is URLError, is CatalogError, is CancellationError: 2
      case let error as RemoteDataSourceError:
        switch error {
        case .http, .notHTTP: 3
        default: 4
        }
      default: 4
      }
    throw NotDoneYet(
      "Task \(task)", in: "Docs/06-ErrorMapping.md", "catalogError(from:now:) should map \(type(of: error)) \(error)")
  }

  // MARK: Task 3: map HTTP answers (the finished remote source calls these two)

  /// The domain error for an HTTP status, or `nil` for a success (2xx).
  ///
  /// - Parameters:
  ///   - status: The response's status code.
  ///   - retryAfter: The `Retry-After` header, if any.
  ///   - now: When the server sent the answer, to measure a `Retry-After` date.
  static func map(status: Int, retryAfter: String?, now: Date) -> CatalogError? {
    // TODO: Task 3. The status table and the Retry-After rules of "The mapping tables".
    .invalidData(
      NotDoneYet("Task 3", in: "Docs/06-ErrorMapping.md", "map(status:retryAfter:now:) should map status \(status)")
        .description)
  }

  /// The domain error for a successful answer whose body is not the JSON the
  /// endpoint promises, or `nil` when it may be JSON.
  ///
  /// - Parameters:
  ///   - body: The response body.
  ///   - contentType: The `Content-Type` header, if any.
  static func checkBody(_ body: Data, contentType: String?) -> CatalogError? {
    // TODO: Task 3. Tell JSON from an empty body, a login page and another type, as the body table says.
    .invalidData(
      NotDoneYet(
        "Task 3", in: "Docs/06-ErrorMapping.md", "checkBody(_:contentType:) should tell JSON from other bodies"
      )
      .description)
  }

  // MARK: Finished

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
}
