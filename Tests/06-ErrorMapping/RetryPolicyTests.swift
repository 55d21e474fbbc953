import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Task 6: when to send a request again, and how long to wait first.
@Suite(.timeLimit(.minutes(1)))
struct RetryPolicyTests {
  /// Base 100 ms, at most 1 s per wait, Retry-After up to 5 s, 3 s of waiting in all.
  static let policy = RetryPolicy(
    maxAttempts: 4, baseDelay: .milliseconds(100), maxDelay: .seconds(1), maxRetryAfter: .seconds(5),
    budget: .seconds(3))

  static let decisions: [(CatalogError, RetryRequest, Int, Bool, String)] = [
    (.server(status: 503), .get, 1, true, "a GET's first 503"),
    (.offline, .get, 3, true, "offline on attempt 3 of 4"),
    (.timedOut, RetryRequest(method: "HEAD"), 1, true, "a HEAD that timed out"),
    (.server(status: 502), RetryRequest(method: "PUT"), 1, true, "a PUT: idempotent"),
    (.server(status: 502), RetryRequest(method: "DELETE"), 1, true, "a DELETE: idempotent"),
    (.rateLimited(retryAfter: .seconds(5)), .get, 1, true, "a 429 asking for 5 s, the cap"),
    (.server(status: 503), .get, 4, false, "attempt 4 of 4: no attempts left"),
    (.notFound, .get, 1, false, "404: the same answer every time"),
    (.unauthorized, .get, 1, false, "401: the user must sign in"),
    (.invalidData("products[0].price"), .get, 1, false, "invalid data: the same body every time"),
    (.server(status: 501), .get, 1, false, "501: not implemented, ever"),
    (.rateLimited(retryAfter: .seconds(6)), .get, 1, false, "a 429 asking for 6 s, past the 5 s cap"),
    (.server(status: 503), RetryRequest(method: "POST"), 1, false, "a POST without an idempotency key"),
    (.server(status: 503), RetryRequest(method: "PATCH"), 1, false, "a PATCH without an idempotency key"),
    (.server(status: 503), RetryRequest(method: "POST", idempotencyKey: "order-42"), 1, true, "a POST with a key"),
  ]

  @Test(arguments: decisions)
  func retriesOnlyTransientFailuresOfIdempotentRequests(
    error: CatalogError, request: RetryRequest, attempt: Int, expected: Bool, what: String
  ) {
    guard guide.requireTask1(for: 6) else { return }
    let outcome = Result { try Policy.shouldRetry(Self.policy, error, attempt: attempt, request: request) }
    #expect(
      (try? outcome.get()) == expected,
      guide.task(
        6,
        "\(what): shouldRetry(\(error), attempt: \(attempt), request: \(request.method)) should be \(expected), got \(outcome)",
        blaming: outcome))
  }

  @Test func fullJitterPicksAFractionOfADoublingCeiling() {
    // Ceilings 100, 200, 400, 800, then the 1 s cap; the waits are the given fraction of each, in whole ms.
    let fractions = [0.5, 0.5, 0.5, 0.5, 0.5, 0.9999, 0]
    let expected: [Duration] = [
      .milliseconds(50), .milliseconds(100), .milliseconds(200), .milliseconds(400), .milliseconds(500),
      .milliseconds(999), .zero,
    ]
    let outcome = Result {
      try fractions.enumerated().map { index, fraction in
        try Policy.delay(Self.policy, after: .offline, attempt: index + 1, random: fraction)
      }
    }
    #expect(
      (try? outcome.get()) == expected,
      guide.task(
        6, "with base 100 ms and max 1 s, random \(fractions) for attempts 1–7 should wait \(expected), got \(outcome)",
        blaming: outcome))
  }

  @Test func theCeilingNeverOverflows() {
    let outcome = Result { try Policy.delay(Self.policy, after: .timedOut, attempt: 200, random: 0.5) }
    #expect(
      (try? outcome.get()) == .milliseconds(500),
      guide.task(
        6, "attempt 200 still waits at most max delay: random 0.5 of 1 s is 500 ms, got \(outcome)", blaming: outcome))
  }

  @Test func retryAfterReplacesTheBackoff() {
    let outcome = Result {
      try Policy.delay(Self.policy, after: .rateLimited(retryAfter: .seconds(3)), attempt: 1, random: 0.1)
    }
    #expect(
      (try? outcome.get()) == .seconds(3),
      guide.task(
        6, "a 429 asking for 3 s waits exactly 3 s, whatever the jitter, got \(outcome)", blaming: outcome))
  }
}
