/// What went wrong, in the app's words: the one error the layers above the
/// data layer see.
///
/// What each case means, whether retrying can help and whether saved products
/// may stand in: the table of Docs/06-ErrorMapping.md, "One error above the data
/// layer". Task 1 is yours.
nonisolated enum CatalogError: Error, Sendable, Equatable {
  /// No route to the catalog.
  case offline
  /// The catalog did not answer in time.
  case timedOut
  /// The answer did not arrive whole.
  case connectionLost
  /// No secure connection could be made.
  case insecureConnection
  /// What was asked for is not there.
  case notFound
  /// The person must sign in again.
  case unauthorized
  /// Too many requests; `retryAfter` is the wait the server asked for, when it said.
  case rateLimited(retryAfter: Duration?)
  /// The catalog refused the request itself.
  case rejected(status: Int)
  /// The catalog failed; `retryAfter` is the wait it asked for, when it said.
  case server(status: Int, retryAfter: Duration? = nil)
  /// Not what the contract promises; the text is for logs.
  case invalidData(String)
  /// The device's own storage failed.
  case storage(StorageFailure)
  /// A cache-only read found nothing it may serve.
  case nothingCached

  /// How the device's storage failed (the storage table in "The mapping tables").
  enum StorageFailure: Sendable, Equatable {
    /// The database is held by someone else.
    case busy
    /// The disk is full.
    case full
    /// The file or a stored row is not what it should be.
    case damaged
    /// The store would not take a row.
    case refused
    /// Anything else.
    case unavailable
  }

  // MARK: Task 1: say whether retrying can help

  /// Whether the same request, sent again later, may succeed; the retry policy
  /// and the Try Again button ask it (Docs/06-ErrorMapping.md, Task 1).
  var isRetryable: Bool {
    // TODO: Task 1 (Docs/06-ErrorMapping.md).
    false
  }

  /// Whether products saved on the device may stand in for the answer this
  /// error replaced; the finished repository asks it (Docs/06-ErrorMapping.md, Task 1).
  var allowsCachedFallback: Bool {
    // TODO: Task 1 (Docs/06-ErrorMapping.md).
    true
  }

  /// How long the server asked to wait before the next attempt, when it said.
  var retryAfter: Duration? {
    switch self {
    case .rateLimited(let retryAfter), .server(_, let retryAfter): retryAfter
    default: nil
    }
  }

  /// The longest wait a `Retry-After` is read as: a year. A server that asks for
  /// longer, or for more seconds than a number can hold, asks for "very long",
  /// which ends the retries like any wait past `RetryPolicy.maxRetryAfter`
  /// (Docs/06-ErrorMapping.md, "The mapping tables").
  static let longestRetryAfter = Duration.seconds(365 * 86_400)
}
