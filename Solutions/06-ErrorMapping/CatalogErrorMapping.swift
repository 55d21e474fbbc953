import Foundation

/// The boundary's tables: the data layer's failures in, `CatalogError` out
/// (Docs/06-ErrorMapping.md, "The mapping tables", Tasks 2 to 4).
///
/// The finished remote source and `AppDependencies.live()` ask the mapper that
/// `AppDependencies.errorMapper()` returns, never a type by name; the type
/// behind this seam is yours to create and name ("What your mapper looks like").
nonisolated protocol CatalogErrorMapping: Sendable {
  /// What an HTTP answer's status says, or `nil` to go on to the body (Task 3).
  ///
  /// - Parameters:
  ///   - status: The response's status code.
  ///   - retryAfter: The `Retry-After` header, if any.
  ///   - now: When the server sent the answer: its `Date` header when it has one,
  ///     the injected wall-clock time otherwise. A `Retry-After` date is measured from it.
  func map(status: Int, retryAfter: String?, now: Date) -> CatalogError?

  /// What a successful answer's body says, or `nil` to go on and decode it (Task 3).
  ///
  /// - Parameters:
  ///   - body: The response body.
  ///   - contentType: The `Content-Type` header, if any.
  func checkBody(_ body: Data, contentType: String?) -> CatalogError?

  /// The app's error for anything a data source threw: the boundary's one entry
  /// (Tasks 2 and 4). A `CatalogError` stays as it is.
  ///
  /// - Parameters:
  ///   - error: What the data layer threw.
  ///   - now: The injected wall-clock time.
  /// - Throws: `CancellationError` when `error` is a cancellation, in any form.
  func catalogError(from error: any Error, now: Date) throws -> CatalogError
}
