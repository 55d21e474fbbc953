import CourseFixtures
import FakeCatalog
import Foundation
import Synchronization
import Testing

/// The responder decides without a transport: what each fault becomes before
/// a URL protocol or a socket carries it.
struct CatalogResponderTests {
  private func request(_ path: String, method: String = "GET") throws -> RecordedRequest {
    let url = try #require(URL(string: "http://127.0.0.1:1\(path)"))
    return RecordedRequest(method: method, url: url, headers: [:], body: nil)
  }

  private func immediate() -> CatalogResponder {
    CatalogResponder(products: Array(ProductFixtures.records.prefix(4)), sleep: { _ in })
  }

  @Test func answersFromTheStore() async throws {
    let responder = immediate()
    guard case .reply(let reply) = await responder.respond(to: try request("/products/2")) else {
      Issue.record("expected a reply")
      return
    }
    #expect(reply.status == 200)
    #expect(try JSONValue(data: reply.body)["id"] == .number(2))
  }

  @Test func aTruncatedBodyKeepsHalfOfTheRealAnswer() async throws {
    let responder = immediate()
    responder.inject(.truncatedBody, times: 1)
    guard case .truncated(let reply, let keeping) = await responder.respond(to: try request("/products/1")) else {
      Issue.record("expected .truncated")
      return
    }
    #expect(keeping == reply.body.count / 2 && keeping > 0, "half of \(reply.body.count) bytes, got \(keeping)")
  }

  @Test func ambientFaultsComeAfterInjectedOnes() async throws {
    let responder = immediate()
    responder.inject(.status(503), times: 1)
    let first = await responder.respond(to: try request("/products"), adding: [.status(500)])
    let second = await responder.respond(to: try request("/products"), adding: [.status(500)])
    guard case .reply(let injected) = first, case .reply(let ambient) = second else {
      Issue.record("expected two replies, got \(first) and \(second)")
      return
    }
    #expect(injected.status == 503, "the injected fault decides first")
    #expect(ambient.status == 500, "then the transport's own fault")
  }

  @Test func latencyWaitsThroughTheSleepItWasGiven() async throws {
    let slept = SleepLog()
    let responder = CatalogResponder(products: [], sleep: { slept.add($0) })
    responder.inject(.latency(.milliseconds(300)))
    _ = await responder.respond(to: try request("/products"), adding: [.latency(.milliseconds(200))])
    #expect(slept.total == .milliseconds(500), "injected and ambient latency add up, slept \(slept.total)")
  }

  @Test func aServerCanKeepNoRequests() async throws {
    let responder = CatalogResponder(products: [], keepsRequests: false, sleep: { _ in })
    _ = await responder.respond(to: try request("/products"))
    #expect(responder.requests.isEmpty)
  }
}

private final class SleepLog: Sendable {
  private let durations = Mutex<[Duration]>([])
  func add(_ duration: Duration) { durations.withLock { $0.append(duration) } }
  var total: Duration { durations.withLock { $0.reduce(.zero, +) } }
}
