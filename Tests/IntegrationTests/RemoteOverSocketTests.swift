import CatalogServer
import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The reference solution's remote source and repository against `course serve`
/// on 127.0.0.1, through a real `URLSession`: real sockets, real HTTP, no internet.
///
/// Each test starts its own server on a free port and its own ephemeral session,
/// so the tests run in parallel. One test waits on the real clock by nature:
/// `aStalledServerTimesOut` lets a 1 s request timeout fire.
@Suite(.timeLimit(.minutes(1)))
struct RemoteOverSocketTests {
  /// A server on a free port and a session that talks to it, both gone afterwards.
  private func withLoopback(
    timeout: TimeInterval = 10, _ body: (CatalogServer, URLSession) async throws -> Void
  ) async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = timeout
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    try await CatalogServer.withRunning { server in try await body(server, session) }
  }

  private func expectFailure(
    _ expected: String, _ matches: (any Error) -> Bool, _ operation: () async throws -> Void
  ) async {
    do {
      try await operation()
      Issue.record("\(LatestSolution.name) should fail with \(expected), but succeeded")
    } catch {
      #expect(matches(error), "\(LatestSolution.name) should fail with \(expected), got \(error)")
    }
  }

  private func fixture(_ id: Int) -> String? {
    ProductFixtures.records.first { $0["id"] == .number(Double(id)) }?["title"]?.stringValue
  }

  @Test func pagesAreTheRealRecords() async throws {
    try await withLoopback { server, session in
      let page = try await LatestSolution.page(server.baseURL, session, limit: 5, skip: 10)
      #expect(page.ids == Array(11...15), "records 11 to 15, got \(page.ids)")
      #expect(page.titles == (11...15).map { fixture($0) ?? "?" })
      #expect(page.total == 194)
    }
  }

  @Test func aProductByIDIsTheRealRecord() async throws {
    try await withLoopback { server, session in
      let product = try await LatestSolution.product(server.baseURL, session, id: 1)
      #expect(product.id == 1 && product.title == fixture(1))
      #expect(product.price == Decimal(string: "9.99"), "9.99 as money, got \(product.price)")
      await expectFailure("not found", LatestSolution.isNotFound) {
        _ = try await LatestSolution.product(server.baseURL, session, id: 999)
      }
    }
  }

  @Test func manyConcurrentReadsShareTheServer() async throws {
    try await withLoopback { server, session in
      let ids = try await withThrowingTaskGroup(of: Int.self) { group in
        for id in 1...50 {
          group.addTask { try await LatestSolution.product(server.baseURL, session, id: id).id }
        }
        return try await group.reduce(into: []) { $0.append($1) }
      }
      #expect(ids.sorted() == Array(1...50))
    }
  }

  @Test func aRefusedConnectionIsATransportFailure() async throws {
    try await withLoopback { server, session in
      _ = server.perform(.offline(seconds: nil))
      await expectFailure("a refused connection", LatestSolution.isRefusedConnection) {
        _ = try await LatestSolution.page(server.baseURL, session, limit: 1, skip: 0)
      }
    }
  }

  @Test func theRepositoryServesItsCacheMarkedStaleWhenTheServerGoesAway() async throws {
    try await withLoopback { server, session in
      let reader = LatestSolution.ListReader(server.baseURL, session)
      let online = try await reader.read()
      #expect(online.origin == "network" && !online.isStale && online.ids.count == 30, "\(online)")
      _ = server.perform(.offline(seconds: nil))
      let offline = try await reader.read()
      #expect(offline.origin == "memory" && offline.isStale, "the cached list, marked stale; got \(offline)")
      #expect(offline.ids == online.ids)
    }
  }

  /// Waits 1 s on the real clock: the session's own timeout is what is tested.
  ///
  /// Not less: swift-corelibs-foundation rounds a request timeout down to whole
  /// seconds, so 0.5 s would fire at once, stalled server or not. The elapsed
  /// time shows the timeout, not something else, ended the request; only its
  /// lower bound is checked, which no amount of load on the machine can break.
  @Test func aStalledServerTimesOut() async throws {
    try await withLoopback(timeout: 1) { server, session in
      server.responder.inject(.timeout, times: 1)
      let started = ContinuousClock.now
      await expectFailure("timed out", LatestSolution.isTimedOut) {
        _ = try await LatestSolution.page(server.baseURL, session, limit: 1, skip: 0)
      }
      let waited = ContinuousClock.now - started
      #expect(waited >= .milliseconds(900), "the 1 s timeout fired, not something sooner; waited \(waited)")
    }
  }

  @Test func aBodyCutShortIsALostConnection() async throws {
    try await withLoopback { server, session in
      server.responder.inject(.truncatedBody, times: 1)
      await expectFailure("a lost connection", LatestSolution.isCutMidBody) {
        _ = try await LatestSolution.page(server.baseURL, session, limit: 10, skip: 0)
      }
    }
  }

  @Test func anHTMLPageWithStatus200IsNotACatalogAnswer() async throws {
    try await withLoopback { server, session in
      server.responder.inject(.nonJSONBody, times: 1)
      await expectFailure("an HTML page instead of JSON", LatestSolution.isHTMLInsteadOfJSON) {
        _ = try await LatestSolution.page(server.baseURL, session, limit: 1, skip: 0)
      }
    }
  }

  @Test func a429CarriesRetryAfterOverTheWire() async throws {
    try await withLoopback { server, session in
      let limited = Fault.status(429, message: "Too many requests", headers: ["Retry-After": "2"])
      server.responder.inject(limited, times: 2)
      await expectFailure("rate limited", { LatestSolution.isRateLimited($0, retryAfter: 2) }) {
        _ = try await LatestSolution.page(server.baseURL, session, limit: 1, skip: 0)
      }
      let (_, response) = try await session.data(from: server.baseURL.appendingPathComponent("products"))
      let http = try #require(response as? HTTPURLResponse)
      #expect(http.statusCode == 429)
      #expect(http.value(forHTTPHeaderField: "Retry-After") == "2", "the header a retry policy reads")
    }
  }

  /// The retry policy waits as long as `Retry-After` says, on its injected
  /// clock, then asks again over the same socket.
  @Test func a429sRetryAfterIsHonoured() async throws {
    try await withLoopback { server, session in
      server.responder.inject(.status(429, message: "Slow down", headers: ["Retry-After": "2"]), times: 1)
      let clock = TestClock()
      let read = Task {
        try await LatestSolution.pageWithRetries(server.baseURL, session, clock: clock, limit: 2, skip: 0)
      }
      let waiting = await clock.waitForSleepers(count: 1, whileRunning: read)
      #expect(waiting, "after the 429 the policy should wait on the clock before asking again")
      clock.advance(by: .milliseconds(1999))
      #expect(clock.sleeperCount == 1, "Retry-After: 2 means not before 2 s")
      clock.advance(by: .milliseconds(1))
      let ids = try await read.value
      #expect(ids == [1, 2], "the second request, after 2 s, gets the page")
    }
  }
}
