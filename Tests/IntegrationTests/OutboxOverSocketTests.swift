import CatalogServer
import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stage 07's outbox against `course serve` on 127.0.0.1: a change made while
/// the server's port is closed reaches it once it opens, through a 503 and a retry.
///
/// The retry's wait sleeps on a `TestClock`, so nothing here waits on the real clock.
@Suite(.timeLimit(.minutes(1)))
struct OutboxOverSocketTests {
  @Test func aWriteMadeOfflineReachesTheServerOnceWithOneKeyThroughA503() async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    try await CatalogServer.withRunning { server in
      let clock = TestClock()
      let app = try LatestSolution.OfflineApp(server.baseURL, session, clock: clock, key: "edit-1")
      let loaded = try await app.loadFirstPage()
      #expect(loaded == 30, "the first page in the store, got \(loaded) products")

      _ = server.perform(.offline(seconds: nil))
      let pending = try await app.rename(id: 1, to: "Renamed offline")
      #expect(pending == 1, "the offline edit waits in the outbox, got \(pending) entries")
      let shown = try await app.title(id: 1)
      #expect(shown == "Renamed offline", "the edit is on the device at once, got \(shown ?? "nil")")
      let write = try #require(try await app.pendingWrite(), "the edit's outbox entry")

      _ = server.perform(.online)
      server.responder.inject(.status(503, message: "Busy"), on: .update, times: 1)
      let sync = Task { try await app.sync() }
      let waiting = await clock.waitForSleepers(count: 1, whileRunning: sync)
      #expect(waiting, "after the 503 the engine should wait on its clock before sending again")
      clock.advance(by: .seconds(5))
      try await sync.value

      let left = try await app.pending()
      #expect(left == 0, "the outbox is empty once the write is accepted, got \(left)")
      #expect(app.sentKeys == ["edit-1", "edit-1"], "the 503'd attempt and its retry, one key, got \(app.sentKeys)")
      #expect(server.responder.faults.isEmpty, "the injected 503 was met by the first attempt")
      let record = server.responder.products.first { $0["id"] == .number(1) }
      #expect(record?["title"]?.stringValue == "Renamed offline", "the server applied the edit")

      // The same write again, as after an answer lost on the way back: the server
      // knows the key from the accepted attempt and replays its answer.
      var request = URLRequest(url: server.baseURL.appendingPathComponent(write.path))
      request.httpMethod = write.method
      request.httpBody = write.body
      request.setValue(write.key, forHTTPHeaderField: "Idempotency-Key")
      let (_, response) = try await session.data(for: request)
      let http = try #require(response as? HTTPURLResponse)
      #expect(http.statusCode == 200)
      #expect(
        http.value(forHTTPHeaderField: "Idempotent-Replayed") == "true",
        "the server saw key \(write.key) with the accepted write, and applies it once")
    }
  }

  /// `clip` and `plain`: the server applies the add and answers 2xx, whole by
  /// HTTP's measure, with a body that can't be read. The engine sends the add
  /// again with its key, and the server's kept answer names the product.
  @Test(arguments: ["clip 1", "plain 1"])
  func anAddWhoseAnswerCannotBeReadEndsUnderTheServersIDOnce(command: String) async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    defer { session.finishTasksAndInvalidate() }
    try await CatalogServer.withRunning { server in
      let clock = TestClock()
      let app = try LatestSolution.OfflineApp(server.baseURL, session, clock: clock, key: "add-1")
      let temporary = try await app.add(title: "Socket kettle")
      #expect(temporary < 0, "an add waits under a temporary id, got \(temporary)")
      _ = server.perform(try ControlCommand.parse(command))
      let sync = Task { try await app.sync() }
      let waiting = await clock.waitForSleepers(count: 1, whileRunning: sync)
      #expect(waiting, "after the unreadable answer the engine should wait on its clock before asking again")
      clock.advance(by: .seconds(5))
      try await sync.value
      let served = server.responder.products.filter { $0["title"]?.stringValue == "Socket kettle" }
        .compactMap { $0["id"]?.numberValue.map { Int($0) } }
      let device = try await app.ids(title: "Socket kettle")
      #expect(served.count == 1, "the server applied the add once, got ids \(served)")
      #expect(device == served, "the device holds the add under the server's id \(served), got \(device)")
      #expect(app.sentKeys == ["add-1", "add-1"], "the add and its second asking, one key, got \(app.sentKeys)")
      let left = try await app.pending()
      #expect(left == 0, "the outbox is empty, got \(left)")
    }
  }
}
