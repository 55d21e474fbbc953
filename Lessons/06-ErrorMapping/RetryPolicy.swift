import LessonSupport

/// What a retry policy needs to know about a request: whether sending it twice is safe.
nonisolated struct RetryRequest: Sendable, Hashable {
  /// The HTTP method, such as `GET`.
  var method: String
  /// The request's `Idempotency-Key` header, if it has one.
  var idempotencyKey: String?

  init(method: String, idempotencyKey: String? = nil) {
    self.method = method.uppercased()
    self.idempotencyKey = idempotencyKey
  }

  /// A `GET`, as every read of the catalog is.
  static let get = RetryRequest(method: "GET")

  /// Whether the request is safe to send twice (rule 3 of "A retry policy, as a decorator").
  var isIdempotent: Bool {
    ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method) || idempotencyKey != nil
  }
}

/// When to send a failed request again, and how long to wait first.
///
/// Its rules are the numbered list of Docs/06-ErrorMapping.md, "A retry policy,
/// as a decorator"; Task 6 is yours.
nonisolated struct RetryPolicy: Sendable, Hashable {
  /// How many attempts (rule 2).
  var maxAttempts: Int
  /// The backoff's base (rule 5).
  var baseDelay: Duration
  /// The backoff's cap (rule 5).
  var maxDelay: Duration
  /// The cap on a server's `Retry-After` (rule 5).
  var maxRetryAfter: Duration
  /// How long the retries may go on (rule 6).
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

  /// The app's policy (`RetryPolicy.standard` in Docs/06-ErrorMapping.md says why these values).
  static let standard = RetryPolicy(
    maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(4), maxRetryAfter: .seconds(10),
    budget: .seconds(10))

  /// One attempt, no retries.
  static let never = RetryPolicy(
    maxAttempts: 1, baseDelay: .zero, maxDelay: .zero, maxRetryAfter: .zero, budget: .zero)

  // MARK: Task 6: decide when to retry

  /// Whether to send `request` again after attempt `attempt` failed with `error`
  /// (Docs/06-ErrorMapping.md, Task 6, says how attempts are counted).
  ///
  /// It is marked `throws` only so its stub can throw; keep it or drop it.
  func shouldRetry(_ error: CatalogError, attempt: Int, request: RetryRequest) throws -> Bool {
    // TODO: Task 6 (Docs/06-ErrorMapping.md).
    throw NotDoneYet(
      "Task 6", in: "Docs/06-ErrorMapping.md", "shouldRetry(_:attempt:request:) should decide for \(error)")
  }

  /// How long to wait after attempt `attempt` failed with `error`, before the next
  /// (Docs/06-ErrorMapping.md, Task 6).
  ///
  /// - Parameters:
  ///   - error: The failure.
  ///   - attempt: The attempt that failed.
  ///   - random: A number in `0..<1` from the injected jitter source.
  ///
  /// It is marked `throws` only so its stub can throw; keep it or drop it.
  func delay(after error: CatalogError, attempt: Int, random: Double) throws -> Duration {
    // TODO: Task 6 (Docs/06-ErrorMapping.md).
    throw NotDoneYet("Task 6", in: "Docs/06-ErrorMapping.md", "delay(after:attempt:random:) should pick the wait")
  }
}
