import FakeCatalog
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Task 7: the engine follows connectivity and says what it is doing.
@Suite(.timeLimit(.minutes(1)))
struct StatusTests {
  @Test func offlineWaitsAndOnlineSyncs() async throws {
    guard await requireTask1(for: 7) else { return }
    let harness = try Harness()
    var statuses = await harness.engine.statuses().makeAsyncIterator()
    let connectivity = AsyncStream.makeStream(of: Bool.self)
    let engine = harness.engine
    let running = Task { try await engine.run(connectivity: connectivity.stream) }
    var seen = [await statuses.next()]
    connectivity.continuation.yield(false)
    seen.append(await statuses.next())
    guard
      await attempt(
        4, "two local writes",
        { () async throws -> Void in
          try await harness.repository.add(draft())
          try await harness.repository.delete(id: 3)
        }) != nil
    else {
      connectivity.continuation.finish()
      return
    }
    let whileOffline = harness.writes
    connectivity.continuation.yield(true)
    seen.append(await statuses.next())
    seen.append(await statuses.next())
    connectivity.continuation.finish()
    let outcome = await running.result
    let end = await statuses.next()
    #expect(
      seen == [.idle, .offline, .syncing(pending: 2), .idle],
      guide.task(7, "expected idle, offline, syncing(pending: 2), idle, got \(seen)", blaming: outcome))
    #expect(
      whileOffline.isEmpty && harness.writes == ["POST /products/add", "DELETE /products/3"],
      guide.task(
        7,
        "expected nothing sent while offline and both writes once online, got \(whileOffline) then \(harness.writes)",
        blaming: outcome))
    #expect(
      end == nil && outcome.failure == nil,
      guide.task(
        7,
        "expected run(connectivity:) to return when connectivity finishes and the status stream to end, got \(String(describing: end)) and \(outcome)",
        blaming: outcome))
  }

  @Test func aSyncThatStopsSaysWhy() async throws {
    guard await requireTask1(for: 7) else { return }
    let harness = try Harness()
    guard await attempt(4, "a local write", { try await harness.repository.add(draft()) }) != nil else { return }
    harness.api.inject(.status(503, message: "Down"))
    var statuses = await harness.engine.statuses().makeAsyncIterator()
    let connectivity = AsyncStream.makeStream(of: Bool.self)
    let engine = harness.engine
    let running = Task { try await engine.run(connectivity: connectivity.stream) }
    connectivity.continuation.yield(true)
    connectivity.continuation.finish()
    var seen: [SyncStatus] = []
    while let status = await statuses.next() { seen.append(status) }
    let outcome = await running.result
    #expect(
      seen == [.idle, .syncing(pending: 1), .failed(lastError: .server(status: 503))],
      guide.task(
        7, "expected idle, syncing(pending: 1), failed(lastError: .server(status: 503)), got \(seen)", blaming: outcome)
    )
  }
}
