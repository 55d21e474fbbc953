import CourseSQLite
import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The boundary's mapper: the data layer's failures in, `CatalogError` out.
///
/// The tables are in Docs/06-ErrorMapping.md, "The mapping tables" (Tasks 2 to 4);
/// how you split them inside is yours ("How the mapper is organised").
enum CatalogErrorMapper {
  // MARK: Tasks 2 and 4: the boundary

  /// The app's error for anything a data source threw: the boundary's one entry
  /// (Docs/06-ErrorMapping.md, Tasks 2 and 4).
  ///
  /// - Parameters:
  ///   - error: What the data layer threw.
  ///   - now: The injected wall-clock time.
  static func catalogError(from error: any Error, now: Date) throws -> CatalogError {
    // TODO: Tasks 2 and 4 (Docs/06-ErrorMapping.md).
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

  /// What an HTTP answer's status says, or `nil` to go on to the body
  /// (Docs/06-ErrorMapping.md, Task 3).
  ///
  /// - Parameters:
  ///   - status: The response's status code.
  ///   - retryAfter: The `Retry-After` header, if any.
  ///   - now: The time the finished remote source passes (Task 3 says which).
  static func map(status: Int, retryAfter: String?, now: Date) -> CatalogError? {
    // TODO: Task 3 (Docs/06-ErrorMapping.md).
    .invalidData(
      NotDoneYet("Task 3", in: "Docs/06-ErrorMapping.md", "map(status:retryAfter:now:) should map status \(status)")
        .description)
  }

  /// What a successful answer's body says, or `nil` to go on and decode it
  /// (Docs/06-ErrorMapping.md, Task 3).
  ///
  /// - Parameters:
  ///   - body: The response body.
  ///   - contentType: The `Content-Type` header, if any.
  static func checkBody(_ body: Data, contentType: String?) -> CatalogError? {
    // TODO: Task 3 (Docs/06-ErrorMapping.md).
    .invalidData(
      NotDoneYet(
        "Task 3", in: "Docs/06-ErrorMapping.md", "checkBody(_:contentType:) should tell JSON from other bodies"
      )
      .description)
  }

  // MARK: Finished

  /// The longest wait a `Retry-After` is read as (Docs/06-ErrorMapping.md,
  /// "The mapping tables", `Retry-After`).
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
