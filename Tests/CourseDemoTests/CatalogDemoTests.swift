import CatalogServer
import CourseDemo
import CourseFixtures
import FakeCatalog
import Foundation
import Synchronization
import Testing

/// `course demo`'s script, end to end, against its embedded `course serve` on
/// 127.0.0.1: real sockets, no internet, a second or two of real time.
@Suite(.timeLimit(.minutes(1)))
struct CatalogDemoTests {
  /// Runs the embedded demo and returns everything it narrated, in order.
  private func runDemo() async throws -> [DemoEvent] {
    let events = Mutex<[DemoEvent]>([])
    try await CatalogDemo.runEmbedded { event in events.withLock { $0.append(event) } }
    return events.withLock { $0 }
  }

  @Test func theScriptReachesEveryMilestoneInOrder() async throws {
    let events = try await runDemo()
    let milestones = events.compactMap { event -> DemoMilestone? in
      if case .milestone(let milestone) = event { return milestone }
      return nil
    }
    #expect(milestones.count == 7, "7 milestones, from loaded to finished, got \(milestones)")
    guard milestones.count == 7 else { return }

    #expect(milestones[0] == .loaded(shown: 30, total: 194), "the first page of 30 of 194, got \(milestones[0])")
    #expect(
      milestones[1] == .staleWhileOffline(shown: 30, error: "offline"),
      "offline, a refresh fails as offline and the 30 stored products stay, got \(milestones[1])")

    guard case .editedOffline(let id, let title, let pending, let key) = milestones[2] else {
      Issue.record("the third milestone is the offline edit, got \(milestones[2])")
      return
    }
    #expect(title.hasSuffix("(edited offline)") && pending == 1, "the edit with 1 pending entry, got \(milestones[2])")
    #expect(!key.isEmpty, "the outbox entry has an idempotency key")

    #expect(
      milestones[3] == .synced(statuses: ["syncing(pending: 1)", "idle"], pending: 0),
      "back online: syncing(pending: 1), idle, and an empty outbox, got \(milestones[3])")
    #expect(
      milestones[4] == .serverApplied(writes: 1, replayedOnRepeat: true, title: title),
      "the server took the write once and replayed the repeat with key \(key), got \(milestones[4])")
    #expect(
      milestones[5] == .refreshedAfterSync(title: title),
      "a refresh of product \(id) after the sync keeps the edit, got \(milestones[5])")
    #expect(milestones[6] == .finished)
  }

  @Test func theNarrationShowsTheStatusesAndTheServersRequests() async throws {
    let events = try await runDemo()
    let statuses = events.compactMap { event -> String? in
      if case .syncStatus(let status) = event { return status }
      return nil
    }
    #expect(
      statuses == ["idle", "syncing(pending: 0)", "idle", "offline", "syncing(pending: 1)", "idle"],
      "every status the engine published, in order, got \(statuses)")
    let requests = events.compactMap { event -> String? in
      if case .server(let line) = event { return line }
      return nil
    }
    let methods = requests.compactMap { $0.split(separator: " ").first.map(String.init) }.filter {
      ["GET", "PUT", "POST", "DELETE"].contains($0)
    }
    #expect(
      methods == ["GET", "PUT", "PUT", "GET"],
      "a page, the synced write, its repeat, a page; nothing while offline, got \(requests)")
  }

  /// `--base-url` with a server the demo does not own: offline is a switch on
  /// the device, and the server's side is not shown. A local server stands in
  /// for https://dummyjson.com, so no test reaches the internet.
  @Test func aServerGivenByURLIsUsedWithOfflineSimulatedOnTheDevice() async throws {
    try await CatalogServer.withRunning { server in
      let events = Mutex<[DemoEvent]>([])
      try await CatalogDemo.run(baseURL: server.baseURL) { event in events.withLock { $0.append(event) } }
      let milestones = events.withLock { events in
        events.compactMap { event -> DemoMilestone? in
          if case .milestone(let milestone) = event { return milestone }
          return nil
        }
      }
      let kinds = milestones.map { "\($0)".prefix { $0 != "(" } }
      #expect(
        kinds == ["loaded", "staleWhileOffline", "editedOffline", "synced", "refreshedAfterSync", "finished"],
        "every step but the server's own view, in order, got \(milestones)")
      #expect(milestones.contains(.staleWhileOffline(shown: 30, error: "offline")), "flight mode reads as offline")
      let title = server.responder.products.first { $0["title"]?.stringValue?.hasSuffix("(edited offline)") == true }
      #expect(title != nil, "the synced edit reached the server given by URL")
    }
  }
}
