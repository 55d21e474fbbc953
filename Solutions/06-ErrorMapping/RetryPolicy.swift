/// What a retry policy needs to know about a request: whether sending it twice is safe.
nonisolated struct RetryRequest: Sendable, Hashable {
  /// The HTTP method, such as `GET`.
  var method: String
  /// The request's `Idempotency-Key` header: the server applies a request with a
  /// key it has seen once, so even a `POST` may be sent again.
  var idempotencyKey: String?

  init(method: String, idempotencyKey: String? = nil) {
    self.method = method.uppercased()
    self.idempotencyKey = idempotencyKey
  }

  /// A `GET`, as every read of the catalog is.
  static let get = RetryRequest(method: "GET")

  /// Whether the request may be sent more than once: `GET`, `HEAD`, `PUT` and
  /// `DELETE` are idempotent by definition (RFC 9110, section 9.2.2); any other
  /// method only with an idempotency key.
  var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) || idempotencyKey != nil
  }
}

/// When to send a failed request again, and how long to wait first.
///
/// - At most `maxAttempts` attempts, the first one included.
/// - Only transient failures (`CatalogError.isRetryable`), only idempotent requests.
/// - Waits with exponential backoff and full jitter: before retry *n* (1, 2, …),
///   a random time between zero and `min(maxDelay, baseDelay × 2^(n−1))`.
/// - A server's `Retry-After` replaces the backoff, when it is at most
///   `maxRetryAfter`; a longer one ends the retries, so the screen can say when
///   to try again instead of holding a spinner.
/// - No retry starts later than `budget` after the first attempt started,
///   counting the attempts and the waits on the retry loop's clock.
nonisolated struct RetryPolicy: Sendable, Hashable {
  /// Attempts in all, the first one included; 1 never retries.
  var maxAttempts: Int
  /// The backoff's ceiling before the first retry; it doubles for each retry after.
  var baseDelay: Duration
  /// The longest single wait the backoff picks.
  var maxDelay: Duration
  /// The longest `Retry-After` honoured; a longer one is not waited for.
  var maxRetryAfter: Duration
  /// The longest time from the first attempt's start to a retry's start, attempts
  /// and waits together: a retry that would start later is not made.
  var budget: Duration

  /// - Precondition: `maxAttempts >= 1` and no duration is negative.
  init(
    maxAttempts: Int, baseDelay: Duration, maxDelay: Duration, maxRetryAfter: Duration, budget: Duration
  ) {
    precondition(maxAttempts >= 1, "RetryPolicy needs at least 1 attempt, got \(maxAttempts)")
    precondition(
      [baseDelay, maxDelay, maxRetryAfter, budget].allSatisfy { $0 >= .zero },
      "RetryPolicy's durations can't be negative")
    self.maxAttempts = maxAttempts
    self.baseDelay = baseDelay
    self.maxDelay = maxDelay
    self.maxRetryAfter = maxRetryAfter
    self.budget = budget
  }

  /// The app's policy: 3 attempts, so two waits under ceilings of 0.5 s and 1 s
  /// (the 4 s cap matters only with more attempts), a `Retry-After` up to 10 s,
  /// and no retry that starts more than 10 s after the first attempt did: a
  /// request that timed out after 15 s is not sent again. A person watching a
  /// spinner gives up long before a minute.
  static let standard = RetryPolicy(
    maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(4), maxRetryAfter: .seconds(10),
    budget: .seconds(10))

  /// One attempt, no retries.
  static let never = RetryPolicy(
    maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, maxRetryAfter: .zero, budget: .zero)

  // MARK: Task 6: decide when to retry

  /// Whether to send `request` again after it failed with `error` on attempt number `attempt` (1 for the first).
  func shouldRetry(_ error: CatalogError, attempt: Int, request: RetryRequest) -> Bool {
    guard attempt < maxAttempts, request.isIdempotent, error.isRetryable else { return false }
    if let retryAfter = error.retryAfter, retryAfter > maxRetryAfter { return false }
    return true
  }

  /// How long to wait before the attempt after `attempt`.
  ///
  /// - Parameters:
  ///   - error: The failure; its `retryAfter`, when there is one, is the wait.
  ///   - attempt: The attempt that failed, 1 for the first.
  ///   - random: A number in `0..<1` from the jitter source; the wait is that
  ///     fraction of the backoff's ceiling, rounded down to the millisecond.
  func delay(after error: CatalogError, attempt: Int, random: Double) -> Duration {
    if let retryAfter = error.retryAfter { return min(retryAfter, maxRetryAfter) }
    return .milliseconds(Int64((Double(milliseconds(ceiling(attempt: attempt))) * random).rounded(.down)))
  }

  /// `min(maxDelay, baseDelay × 2^(attempt−1))`, without overflowing for large attempts.
  func ceiling(attempt: Int) -> Duration {
    var ceiling = baseDelay
    for _ in 1..<max(attempt, 1) where ceiling < maxDelay {
      ceiling = ceiling * 2
    }
    return min(ceiling, maxDelay)
  }

  /// Finished: a duration in whole milliseconds, rounded down.
  func milliseconds(_ duration: Duration) -> Int64 {
    duration.components.seconds * 1_000 + duration.components.attoseconds / 1_000_000_000_000_000
  }
}
