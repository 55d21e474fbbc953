import CourseClock
import Foundation
import StageTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Task 7: the decorator retries the remote source on the injected clock, counts
/// its attempts, keeps to the budget, and stops at once when cancelled.
@Suite(.timeLimit(.minutes(1)))
struct RetryingTests {
  /// Base 1 s, at most 8 s per wait, Retry-After up to 10 s, 20 s in all, 4 attempts.
  static let policy = RetryPolicy(
    maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(8), maxRetryAfter: .seconds(10),
    budget: .seconds(20))

  struct Rig {
    let clock = TestClock()
    let remote: SpyRemoteDataSource
    let retrying: RetryingProductRemoteDataSource

    init(
      _ answers: [Result<[Product], CatalogError>], policy: RetryPolicy = RetryingTests.policy, random: [Double] = [0.5]
    ) {
      remote = SpyRemoteDataSource(answers)
      retrying = RetryingProductRemoteDataSource(
        wrapping: remote, policy: policy, clock: clock, random: ScriptedRandom(random).source)
    }
  }

  /// Runs `read` to its end without waiting on a sleeper that the test will never
  /// wake: a read still asleep on the clock when the test expects it done is
  /// cancelled, so a wrong wait fails the test instead of hanging it.
  static func settle<Value: Sendable>(_ read: Task<Value, any Error>, on clock: TestClock) async -> Result<
    Value, any Error
  > {
    guard await clock.waitForSleepers(count: 1, whileRunning: read) else { return await read.result }
    read.cancel()
    _ = await read.result
    return .failure(StillAsleep(at: clock.now.offset))
  }

  /// What a read that was still asleep on the clock, when the test expected it done, gave.
  struct StillAsleep: Error, CustomStringConvertible {
    let at: Duration
    var description: String {
      "no result: it was still sleeping on the clock at \(at), longer than the test allows, so the test cancelled it"
    }
  }

  /// Starts `operation` in a task and settles it: tests whose reads must not wait at all.
  static func run<Value: Sendable>(on clock: TestClock, _ operation: @escaping @Sendable () async throws -> Value)
    async -> Result<Value, any Error>
  {
    await settle(Task { try await operation() }, on: clock)
  }

  /// What a message adds when the read never slept on the test clock: it waited some other way, or not at all.
  static func clockNote(sleeps: Int) -> String {
    sleeps > 0
      ? ""
      : "; nothing slept on the injected clock: use `try await clock.sleep(for:)`, not `Task.sleep` or another clock"
  }

  /// Whether Tasks 1 and 6 are done; records an issue naming the first that is not.
  static func ready(_ number: Int) -> Bool {
    guide.requireTask1(for: number) && Policy.requireTask6(for: number)
  }

  @Test func sleepsTheJitteredDelaysOnTheClockThenAnswers() async {
    guard Self.ready(7) else { return }
    // Random 0.5 and 0.25 of ceilings 1 s and 2 s: waits of 500 ms, then 500 ms.
    let rig = Rig([.failure(.server(status: 503)), .failure(.offline), .success(firstPage)], random: [0.5, 0.25])
    let read = Task { try await rig.retrying.products(limit: 30, skip: 0) }
    var log: [String] = []
    for attempt in 1...2 {
      guard await rig.clock.waitForSleepers(count: 1, whileRunning: read) else { break }
      rig.clock.advance(by: .milliseconds(499))
      log.append("sleep \(attempt) at 499 ms: \(rig.remote.attempts.count) attempt(s)")
      rig.clock.advance(by: .milliseconds(1))
      // Still asleep after its 500 ms: the wait was too long; settle(_:on:) below cancels it.
      guard rig.clock.sleeperCount == 0 else { break }
      guard await waitFor({ await rig.remote.attempts.wait(atLeast: attempt + 1) }, unlessFinished: read) else { break }
    }
    let outcome = await Self.settle(read, on: rig.clock)
    #expect(
      (try? outcome.get().products.count) == 30 && rig.remote.attempts.count == 3 && rig.clock.now.offset == .seconds(1)
        && log == ["sleep 1 at 499 ms: 1 attempt(s)", "sleep 2 at 499 ms: 2 attempt(s)"],
      guide.task(
        7,
        "503, offline, then the list: 3 attempts after waits of 500 ms and 500 ms on the clock; got \(brief(outcome)), \(rig.remote.attempts.count) attempts, clock at \(rig.clock.now.offset), sleeps on the clock: \(log)\(Self.clockNote(sleeps: log.count))",
        blaming: outcome))
  }

  static let finalErrors: [CatalogError] = [
    .notFound, .unauthorized, .invalidData("products[0].price: expected Decimal"),
  ]

  @Test(arguments: finalErrors)
  func neverRetriesWhatFailsTheSameWayEveryTime(error: CatalogError) async {
    guard Self.ready(7) else { return }
    let rig = Rig([.failure(error)])
    let outcome = await Self.run(on: rig.clock) { try await rig.retrying.products(limit: 30, skip: 0) }
    #expect(
      outcome.failure as? CatalogError == error && rig.remote.attempts.count == 1 && rig.clock.sleeperCount == 0,
      guide.task(
        7,
        "\(error) is thrown after 1 attempt, without a wait; got \(brief(outcome)) after \(rig.remote.attempts.count) attempt(s)",
        blaming: outcome))
  }

  @Test func stopsAfterMaxAttemptsWithTheLastError() async {
    guard Self.ready(7) else { return }
    let rig = Rig([.failure(.server(status: 503)), .failure(.server(status: 502))], random: [0])
    let outcome = await Self.run(on: rig.clock) { try await rig.retrying.products(limit: 30, skip: 0) }
    #expect(
      outcome.failure as? CatalogError == .server(status: 502) && rig.remote.attempts.count == 4,
      guide.task(
        7,
        "always failing with random 0 (no waits): 4 attempts, then the last error, server(502); got \(brief(outcome)) after \(rig.remote.attempts.count) attempt(s)",
        blaming: outcome))
  }

  @Test func keepsWithinTheBudget() async {
    guard Self.ready(7) else { return }
    // Random 0.99: waits of 990 ms, 1,980 ms, then 3,960 ms. Against a 2.5 s budget each of the
    // first two fits alone, but they add up to 2,970 ms: only the first fits.
    let policy = RetryPolicy(
      maxAttempts: 10, baseDelay: .seconds(1), maxDelay: .seconds(8), maxRetryAfter: .seconds(10),
      budget: .milliseconds(2_500))
    let rig = Rig([.failure(.timedOut)], policy: policy, random: [0.99])
    let read = Task { try await rig.retrying.products(limit: 30, skip: 0) }
    // At most 20 waits, then the read is cancelled: a loop that never stops fails instead of spinning.
    var sleeps = 0
    for _ in 1...20 {
      guard await rig.clock.waitForSleepers(count: 1, whileRunning: read) else { break }
      sleeps += 1
      // Each wait exactly, so the clock shows what the loop waited: the budget counts
      // from the first attempt on this clock. Then the longest wait the policy allows.
      let waits: [Duration] = [.milliseconds(990), .milliseconds(1_980), .milliseconds(3_960)]
      rig.clock.advance(by: sleeps <= waits.count ? waits[sleeps - 1] : .seconds(8))
    }
    read.cancel()
    let outcome = await read.result
    #expect(
      outcome.failure as? CatalogError == .timedOut && rig.remote.attempts.count == 2 && sleeps == 1,
      guide.task(
        7,
        (sleeps == 0
          ? "nothing slept on the injected clock, so the budget cannot be judged: use `try await clock.sleep(for:)`, not `Task.sleep` or another clock. "
          : "")
          + "with a 2.5 s budget, the first wait of 990 ms fits, and the second, 1,980 ms, does not: it fits alone, but the waits add up to 2,970 ms (the budget counts the whole call, not each wait alone): 2 attempts and 1 sleep on the clock, then .timedOut; got \(brief(outcome)) after \(rig.remote.attempts.count) attempt(s) and \(sleeps) sleep(s) on the clock",
        blaming: outcome))
  }

  @Test func theBudgetCountsTheAttemptsToo() async {
    guard Self.ready(7) else { return }
    // Each attempt takes 4 s on the clock, then fails with a 503; random 0.5 waits 500 ms, 1 s, then 2 s.
    // Attempts start at 0, 4.5 and 9.5 s; the fourth would start at 15.5 s, past the 10 s budget,
    // though the waits alone (3.5 s) are well inside it.
    let policy = RetryPolicy(
      maxAttempts: 4, baseDelay: .seconds(1), maxDelay: .seconds(8), maxRetryAfter: .seconds(10),
      budget: .seconds(10))
    let rig = Rig([.success(firstPage)], policy: policy, random: [0.5])
    let attempts = Mutex(0)
    let clock = rig.clock
    let read = Task {
      try await rig.retrying.retrying(.get) { () async throws -> Int in
        attempts.withLock { $0 += 1 }
        try await clock.sleep(for: .seconds(4))
        throw CatalogError.server(status: 503)
      }
    }
    for step in [Duration.seconds(4), .milliseconds(500), .seconds(4), .seconds(1), .seconds(4)] {
      guard await rig.clock.waitForSleepers(count: 1, whileRunning: read) else { break }
      rig.clock.advance(by: step)
    }
    let outcome = await Self.settle(read, on: rig.clock)
    let count = attempts.withLock { $0 }
    #expect(
      outcome.failure as? CatalogError == .server(status: 503) && count == 3 && rig.clock.now.offset == .seconds(13.5),
      guide.task(
        7,
        "the budget is the whole call, attempts and waits, on the clock: attempts of 4 s each start at 0, 4.5 and 9.5 s, and the fourth, at 15.5 s, would be past the 10 s budget: 3 attempts, then server(503) at 13.5 s; got \(brief(outcome)) after \(count) attempt(s), clock at \(rig.clock.now.offset) (measure with startStopwatch(), not by adding up the waits)",
        blaming: outcome))
  }

  @Test func aLostConnectionIsRetriedWithTheSameKey() async {
    let mapped = Result { try Mapper.boundary(URLError(.unknown)) }
    guard (try? mapped.get()) == .connectionLost else {
      Issue.record(
        guide.task(
          2,
          "finish this task first; Task 7's test needs URLError(.unknown), Linux's report of a body cut short, mapped to .connectionLost; got \(mapped)",
          blaming: mapped))
      return
    }
    guard Self.ready(7) else { return }
    // Linux's report of a body cut short, through the mapper, on every attempt of a keyed POST.
    let rig = Rig([.success(firstPage)], random: [0])
    let keys = Mutex<[String]>([])
    let request = RetryRequest(method: "POST", idempotencyKey: "edit-42")
    let outcome = await Self.run(on: rig.clock) {
      try await rig.retrying.retrying(request) { () throws -> Int in
        keys.withLock { $0.append(request.idempotencyKey ?? "none") }
        throw try Mapper.boundary(URLError(.unknown))
      }
    }
    let sent = keys.withLock { $0 }
    #expect(
      outcome.failure as? CatalogError == .connectionLost && sent == Array(repeating: "edit-42", count: 4),
      guide.task(
        7,
        "a connection cut short (URLError -1 on Linux) is .connectionLost, which is retried: a keyed POST is sent 4 times, each with its key edit-42, then .connectionLost; got \(brief(outcome)) after \(sent.count) attempt(s) with keys \(sent)",
        blaming: outcome))
  }

  @Test func honoursRetryAfter() async {
    guard Self.ready(7) else { return }
    let rig = Rig([.failure(.rateLimited(retryAfter: .seconds(3))), .success(firstPage)])
    let read = Task { try await rig.retrying.products(limit: 30, skip: 0) }
    let slept = await rig.clock.waitForSleepers(count: 1, whileRunning: read)
    rig.clock.advance(by: .milliseconds(2_999))
    let early = rig.remote.attempts.count
    rig.clock.advance(by: .milliseconds(1))
    let outcome = await Self.settle(read, on: rig.clock)
    #expect(
      slept && early == 1 && (try? outcome.get().products.count) == 30 && rig.remote.attempts.count == 2,
      guide.task(
        7,
        "a 429 asking for 3 s: no attempt before 3 s, the second at 3 s; got \(brief(outcome)), \(early) attempt(s) at 2.999 s\(Self.clockNote(sleeps: slept ? 1 : 0))",
        blaming: outcome))
  }

  @Test func doesNotWaitForARetryAfterPastTheCap() async {
    guard Self.ready(7) else { return }
    // 15 s: past the 10 s cap but inside the 20 s budget, so only the cap can stop the wait.
    let rig = Rig([.failure(.rateLimited(retryAfter: .seconds(15))), .success(firstPage)])
    let outcome = await Self.run(on: rig.clock) { try await rig.retrying.products(limit: 30, skip: 0) }
    #expect(
      outcome.failure as? CatalogError == .rateLimited(retryAfter: .seconds(15)) && rig.remote.attempts.count == 1,
      guide.task(
        7,
        "a 429 asking for 15 s, past the 10 s cap (though inside the 20 s budget), goes to the screen at once with its wait; got \(brief(outcome)) after \(rig.remote.attempts.count) attempt(s)",
        blaming: outcome))
  }

  @Test func aCancellationDuringBackoffMakesNoFurtherAttempt() async {
    guard Self.ready(7) else { return }
    let rig = Rig([.failure(.server(status: 503)), .success(firstPage)])
    let read = Task { try await rig.retrying.products(limit: 30, skip: 0) }
    let slept = await rig.clock.waitForSleepers(count: 1, whileRunning: read)
    read.cancel()
    let outcome = await read.result
    rig.clock.advance(by: .seconds(60))
    #expect(
      slept && outcome.failure is CancellationError && rig.remote.attempts.count == 1,
      guide.task(
        7,
        "cancelled while waiting to retry: CancellationError at once and no second attempt; got \(brief(outcome)) after \(rig.remote.attempts.count) attempt(s)\(Self.clockNote(sleeps: slept ? 1 : 0))",
        blaming: outcome))
  }

  /// A spy operation for requests the remote source does not make: counts and fails with a 503.
  final class Attempts: Sendable {
    let count = Mutex(0)
    func fail() throws -> Int {
      count.withLock { $0 += 1 }
      throw CatalogError.server(status: 503)
    }
  }

  /// A spy operation that fails with a 503 until attempt `cancelledOn`, where it
  /// cancels its own task and fails with `error`, as a request does when the
  /// person leaves the screen while it is in flight.
  final class CancelsItself: Sendable {
    let count = Mutex(0)
    let error: CatalogError
    let cancelledOn: Int
    init(_ error: CatalogError, on attempt: Int) {
      self.error = error
      self.cancelledOn = attempt
    }
    func fail() throws -> Int {
      let attempt = count.withLock {
        $0 += 1
        return $0
      }
      guard attempt >= cancelledOn else { throw CatalogError.server(status: 503) }
      withUnsafeCurrentTask { $0?.cancel() }
      throw error
    }
  }

  static let failuresWhileCancelled: [(CatalogError, Int, String)] = [
    (.notFound, 1, "a 404 on attempt 1, which the policy would not retry"),
    (.server(status: 503), 4, "a 503 on attempt 4 of 4, the last"),
  ]

  @Test(arguments: failuresWhileCancelled)
  func aFailureOfACancelledTaskIsCancellation(error: CatalogError, cancelledOn: Int, what: String) async {
    guard Self.ready(7) else { return }
    let rig = Rig([.success(firstPage)], random: [0])
    let operation = CancelsItself(error, on: cancelledOn)
    let outcome = await Self.run(on: rig.clock) { try await rig.retrying.retrying(.get) { try operation.fail() } }
    let count = operation.count.withLock { $0 }
    #expect(
      outcome.failure is CancellationError && count == cancelledOn,
      guide.task(
        7,
        "rule 1, whatever the failed attempt threw: \(what), while its task is cancelled, ends as CancellationError (nobody is waiting for the error); got \(brief(outcome)) after \(count) attempt(s)",
        blaming: outcome))
  }

  @Test func aPostIsNotRetriedWithoutAnIdempotencyKey() async {
    guard Self.ready(7) else { return }
    let rig = Rig([.success(firstPage)], random: [0])
    let attempts = Attempts()
    let outcome = await Self.run(on: rig.clock) {
      try await rig.retrying.retrying(RetryRequest(method: "POST")) { try attempts.fail() }
    }
    let count = attempts.count.withLock { $0 }
    #expect(
      outcome.failure as? CatalogError == .server(status: 503) && count == 1,
      guide.task(
        7,
        "a POST without an Idempotency-Key is sent once: a retry could place the order twice; got \(brief(outcome)) after \(count) attempt(s)",
        blaming: outcome))
  }

  @Test func aPostWithAnIdempotencyKeyIsRetried() async {
    guard Self.ready(7) else { return }
    let rig = Rig([.success(firstPage)], random: [0])
    let attempts = Attempts()
    let request = RetryRequest(method: "POST", idempotencyKey: "7d5d1c1e")
    let outcome = await Self.run(on: rig.clock) { try await rig.retrying.retrying(request) { try attempts.fail() } }
    let count = attempts.count.withLock { $0 }
    #expect(
      outcome.failure as? CatalogError == .server(status: 503) && count == 4,
      guide.task(
        7,
        "a POST with an Idempotency-Key is retried like a GET: 4 attempts; got \(brief(outcome)) after \(count) attempt(s)",
        blaming: outcome))
  }
}
