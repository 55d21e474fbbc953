/// What went wrong, in the app's words: the only error a repository, a view
/// model or a screen ever sees, apart from `CancellationError`.
///
/// The data layer maps `URLError`, HTTP statuses, `DecodingError` and SQLite
/// errors into it at the boundary (`CatalogErrorMapper`), so nothing above the
/// data layer knows how the catalog is reached or stored. Cancellation is not
/// one of these: a cancelled request throws `CancellationError`, and no screen
/// shows a message for it.
nonisolated enum CatalogError: Error, Sendable, Equatable {
  /// No route to the catalog: no connection, a lost connection, a host that
  /// can't be found or reached, or a Wi-Fi login page answering for it.
  case offline
  /// The catalog did not answer in time.
  case timedOut
  /// The connection closed before the answer was complete: a body cut short, an
  /// empty reply, a reset. The request may or may not have reached the catalog.
  case connectionLost
  /// A secure connection could not be made: a bad certificate, a wrong device
  /// clock, or something in the middle of the connection.
  case insecureConnection
  /// What was asked for does not exist (404, 410).
  case notFound
  /// The user must sign in again (401, 403).
  case unauthorized
  /// Too many requests (429); `retryAfter` is how long the server asked to wait, when it said.
  case rateLimited(retryAfter: Duration?)
  /// The catalog refused the request itself (another 4xx, such as 409 or 422):
  /// sending it again unchanged gets the same answer.
  case rejected(status: Int)
  /// The catalog failed (5xx); `retryAfter` is how long it asked to wait, when it said.
  case server(status: Int, retryAfter: Duration? = nil)
  /// The answer was not what the contract promises: not JSON, malformed, or
  /// holding a value the app refuses. The text says what, for logs; no screen shows it.
  case invalidData(String)
  /// The device's own storage failed.
  case storage(StorageFailure)
  /// A cache-only read found nothing it may serve.
  case nothingCached

  /// How the device's storage failed.
  enum StorageFailure: Sendable, Equatable {
    /// Another connection held the database for too long; it will let go.
    case busy
    /// The disk is full.
    case full
    /// The file is damaged or is not a database, or a stored row is not a product.
    case damaged
    /// A row broke one of the store's rules: a constraint, or a value it won't save.
    case refused
    /// Anything else: a file that can't be opened, an I/O error.
    case unavailable
  }

  // MARK: Task 1: say whether retrying can help

  /// Whether the same request, sent again later, may succeed.
  ///
  /// Transient failures are: offline, timed out, a lost connection, rate limited, a busy database,
  /// and the server errors that mean "not now" (500, 502, 503, 504). Everything
  /// else fails the same way every time: retrying only costs the user time.
  var isRetryable: Bool {
    switch self {
    case .offline, .timedOut, .connectionLost, .rateLimited: true
    case .server(let status, _): [500, 502, 503, 504].contains(status)
    case .storage(let failure): failure == .busy
    case .insecureConnection, .notFound, .unauthorized, .rejected, .invalidData, .nothingCached: false
    }
  }

  /// Whether products saved on the device may stand in for the answer this error replaced.
  ///
  /// A refusal is an answer: 401 and 403 say this person may not see it, 404 and
  /// 410 say it is gone, another 4xx says the request is wrong. Showing saved
  /// products then would contradict the catalog. Every other failure says
  /// nothing about what is saved: the catalog was not reached, was too slow,
  /// failed, or sent something that is not an answer.
  var allowsCachedFallback: Bool {
    switch self {
    case .offline, .timedOut, .connectionLost, .insecureConnection, .rateLimited, .server, .invalidData, .storage: true
    case .notFound, .unauthorized, .rejected, .nothingCached: false
    }
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
