import CourseClock
import CourseFixtures
import CourseSQLite
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
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(false)
    // Nothing to wait for but the engine's own turn: no clock, no network.
    guard
      await waitForStatuses(
        2, from: statuses, ending: connectivity, of: running,
        problem: { seen, outcome in
          "after \(describe(seen)), waited for .offline after yield(false); none came (then run(connectivity:) \(ran(outcome)))"
        })
    else { return }
    guard
      await attempt(
        4, "two local writes", for: 7,
        { () async throws -> Void in
          try await harness.repository.add(draft())
          try await harness.repository.delete(id: 3)
        }) != nil
    else {
      connectivity.finish()
      return
    }
    let whileOffline = harness.writes
    connectivity.yield(true)
    connectivity.finish()
    // run(connectivity:) returns once it has followed both values; then every status is in the buffer.
    let outcome = await result(of: running)
    let ended = await statuses.waitForEnd()
    let seen = statuses.values
    let expected: [SyncStatus] = [.idle, .offline, .syncing(pending: 2), .idle]
    if seen != expected, let missing = expected.indices.first(where: { $0 >= seen.count || seen[$0] != expected[$0] }) {
      let wanted = describe([expected[missing]])
      let cause = missing < 2 ? "yield(false)" : "yield(true)"
      let found = missing < seen.count ? "got \(describe([seen[missing]])) instead" : "none came"
      Issue.record(
        guide.task(
          7,
          "expected idle, offline, syncing(pending: 2), idle; after \(describe(Array(seen.prefix(missing)))), waited for \(wanted) after \(cause); \(found) (all: \(describe(seen)))",
          blaming: outcome))
    }
    #expect(
      whileOffline.isEmpty && harness.writes == ["POST /products/add", "DELETE /products/3"],
      guide.task(
        7,
        "expected nothing sent while offline and both writes once online, got \(whileOffline) then \(harness.writes)",
        blaming: outcome))
    #expect(
      ended && outcome.failure == nil,
      guide.task(
        7,
        ended
          ? "expected run(connectivity:) to return without an error when connectivity finishes, got \(outcome)"
          : "run must finish its status stream when connectivity ends; it \(ran(outcome)) and the stream stayed open",
        blaming: outcome))
  }

  @Test func aSyncThatStopsSaysWhy() async throws {
    guard await requireTask1(for: 7) else { return }
    let harness = try Harness()
    guard await attempt(4, "a local write", for: 7, { try await harness.repository.add(draft()) }) != nil else {
      return
    }
    harness.api.inject(.status(503, message: "Down"))
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(true)
    connectivity.finish()
    let outcome = await result(of: running)
    let ended = await statuses.waitForEnd()
    let seen = statuses.values
    #expect(
      seen == [.idle, .syncing(pending: 1), .failed(lastError: .server(status: 503))],
      guide.task(
        7,
        "expected idle, syncing(pending: 1), failed(lastError: .server(status: 503)), got \(describe(seen)) and run(connectivity:) \(ran(outcome))",
        blaming: outcome)
    )
    #expect(
      ended,
      guide.task(
        7,
        "run must finish its status stream when connectivity ends; it \(ran(outcome)) and the stream stayed open",
        blaming: outcome))
  }

  /// The engine's backoff here is stage 06's `delay(after:attempt:random:)` with a
  /// jitter of 0.5: 250 ms after the first failed sync, on a test clock this test
  /// never advances. So no retry is due, and only the next `true` starts a sync.
  @Test func aStoreThatFailsMidSyncSaysSoAndTheNextSyncFinishes() async throws {
    guard await requireTask1(for: 7) else { return }
    let file = TemporaryDatabase()
    let harness = try Harness(path: file.path, random: { 0.5 })
    guard await attempt(4, "a local write", for: 7, { try await harness.repository.add(draft()) }) != nil else {
      return
    }
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    // The catalog takes the write; then the store cannot record that it did, as on a full disk.
    try file.refuseWrites(true)
    connectivity.yield(true)
    let stopped: [SyncStatus] = [.idle, .syncing(pending: 1), .failed(lastError: .storage(.refused))]
    let storeFailure =
      "when the store fails after a write was sent (a store failure is a failed sync, reported as a CatalogError)"
    guard
      await waitForStatuses(
        stopped.count, from: statuses, ending: connectivity, of: running,
        problem: { seen, outcome in
          "expected \(describe(stopped)) \(storeFailure), got \(describe(seen)) and run(connectivity:) \(ran(outcome))"
        })
    else { return }
    let first = Array(statuses.values.prefix(stopped.count))
    guard first == stopped else {
      connectivity.finish()
      let outcome = await result(of: running)
      Issue.record(
        guide.task(
          7, "expected \(describe(stopped)) \(storeFailure), got \(describe(first))", blaming: outcome))
      return
    }
    // Until its backoff passes on the clock, which this test never advances, the engine only waits: its
    // timer's sleeper registers, and no status follows. A sync started now would be a retry that did not wait.
    let another = Task { await statuses.waitFor(count: stopped.count + 1) }
    _ = await waitFor({ await harness.clock.waitForSleepers() }, unlessFinished: another)
    another.cancel()
    guard statuses.values.count == stopped.count else {
      let seen = statuses.values
      connectivity.finish()
      let outcome = await result(of: running)
      Issue.record(
        guide.task(
          7,
          "expected the engine to wait after \(describe(stopped)): with the store still failing and no new true, it started another sync at once (\(describe(seen))); a retry is due only when the backoff has passed on the injected clock (250 ms here, and the test never advances it)",
          blaming: outcome))
      return
    }
    try file.refuseWrites(false)
    connectivity.yield(true)
    connectivity.finish()
    let outcome = await result(of: running)
    let ended = await statuses.waitForEnd()
    let seen = statuses.values
    let expected = stopped + [.syncing(pending: 1), .idle]
    let failures = seen.filter { if case .failed = $0 { true } else { false } }.count
    let posts = harness.writes.filter { $0 == "POST /products/add" }.count
    let why: String
    if failures > 1 || posts > 2 {
      why =
        "after the first failed sync the engine tried again before its backoff had passed (250 ms on a test clock that never moved here, so no retry was due), while the store still failed; only the next true may start a sync"
    } else if seen.count < expected.count {
      why =
        "after a failed sync the engine keeps following connectivity, and the next true sends the write, still first in line, again"
    } else {
      why =
        "after a failed sync the engine keeps following connectivity, and the write, still first in line, goes again"
    }
    #expect(
      seen == expected && outcome.failure == nil,
      guide.task(
        7,
        "expected \(describe(expected)): \(why); got \(describe(seen)) and run(connectivity:) \(ran(outcome))",
        blaming: outcome))
    #expect(
      ended,
      guide.task(
        7,
        "run must finish its status stream when connectivity ends; it \(ran(outcome)) and the stream stayed open",
        blaming: outcome))
    let keys = harness.api.requests.filter { $0.method != "GET" }.map { $0.header("Idempotency-Key") ?? "none" }
    #expect(
      harness.writes == ["POST /products/add", "POST /products/add"] && Set(keys).count == 1,
      guide.task(
        Set(keys).count > 1 ? 5 : 7,
        "expected the add sent twice, before the store failed and after the next true, with one Idempotency-Key; got \(harness.writes) with keys \(keys)\(posts > 2 ? " (each POST after the second is a retry made before the backoff passed)" : "")",
        blaming: outcome))
  }
}

/// Task 7: the engine runs for the app's life. A store that fails while the
/// engine decides whether to sync is a failed sync, never the end of the engine.
@Suite(.timeLimit(.minutes(1)))
struct EngineSurvivesItsStoreTests {
  @Test func aStoreThatFailsWhileTheEngineDecidesIsAFailedSyncAndTheOutboxDrainsLater() async throws {
    guard await requireTask1(for: 7) else { return }
    let file = TemporaryDatabase()
    // A jitter of 0.5: the first backoff is 250 ms on the test clock, which the test advances.
    let harness = try Harness(path: file.path, random: { 0.5 })
    guard await attempt(4, "a local write", for: 7, { try await harness.repository.add(draft()) }) != nil else {
      return
    }
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    // The outbox cannot be read: the engine's first question when it comes online fails.
    try file.refuseOutboxReads(true)
    connectivity.yield(true)
    let sawFailure = await waitForStatus(statuses) { if case .failed = $0 { true } else { false } }
    if !sawFailure {
      try file.refuseOutboxReads(false)
      connectivity.finish()
      let outcome = await result(of: running)
      Issue.record(
        guide.task(
          7,
          "expected a store that fails while the engine decides whether to sync (its outbox unreadable) to be a failed sync: a .failed status, the engine still following connectivity, and a retry when the backoff passes; got \(describe(statuses.values)) and run(connectivity:) \(ran(outcome)). A loop that runs for the app's life turns an error into a status and a retry, and ends only when connectivity ends or it is cancelled",
          blaming: outcome))
      return
    }
    // The store recovers; the engine's retry timer, on the test clock, brings the write out.
    try file.refuseOutboxReads(false)
    let before = statuses.values.count
    await harness.clock.waitForSleepersWithinSafetyLimit()
    harness.clock.advance(by: .seconds(60))
    let drained = await waitForStatus(statuses, after: before) { $0 == .idle }
    connectivity.finish()
    let outcome = await result(of: running)
    let kettles = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    let left = try await harness.store.outbox()
    #expect(
      drained && kettles == 1 && left.isEmpty && outcome.failure == nil,
      guide.task(
        kettles > 1 ? 5 : 7,
        "\(doubled(kettles))expected the write sent once after the store recovered and the retry was due (0 lost, 0 doubled, outbox empty), then run(connectivity:) to return when connectivity ended; got statuses \(describe(statuses.values)), \(kettles) kettle(s) in the catalog, \(left.count) entr(ies) left, and run(connectivity:) \(ran(outcome))",
        blaming: outcome))
  }
}

/// Task 7 against a real network: the engine does not wait for connectivity to change.
@Suite(.timeLimit(.minutes(1)))
struct SyncTriggerTests {
  @Test func aWriteMadeOnlineIsSentWithoutAConnectivityChange() async throws {
    guard await requireTask1(for: 7) else { return }
    let harness = try Harness()
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(true)
    let online: [SyncStatus] = [.idle, .syncing(pending: 0), .idle]
    guard
      await waitForStatuses(
        online.count, from: statuses, ending: connectivity, of: running,
        problem: { seen, outcome in
          "expected \(describe(online)) after yield(true), got \(describe(seen)) and run(connectivity:) \(ran(outcome))"
        })
    else { return }
    guard await attempt(4, "a local write", for: 7, { try await harness.repository.add(draft()) }) != nil else {
      connectivity.finish()
      return
    }
    let expected = online + [.syncing(pending: 1), .idle]
    let came = await statuses.waitFor(count: expected.count)
    let short = came ? "" : " (\(statuses.whyShort))"
    connectivity.finish()
    let outcome = await result(of: running)
    #expect(
      came && statuses.values.prefix(expected.count) == expected[...] && harness.writes == ["POST /products/add"],
      guide.task(
        7,
        "expected a write made while online to be sent at once (the store's commit wakes the engine): \(describe(expected)) and one POST; got \(describe(statuses.values))\(short) and \(harness.writes)",
        blaming: outcome))
  }

  @Test func aFailedSyncIsTriedAgainWhenRetryAfterSays() async throws {
    guard await requireTask1(for: 7) else { return }
    let harness = try Harness()
    guard await attempt(4, "a local write", for: 7, { try await harness.repository.add(draft()) }) != nil else {
      return
    }
    // Longer than the retries wait for: the sync stops, and the engine's timer waits the 30 s.
    harness.api.inject(.status(503, message: "Down", headers: ["Retry-After": "30"]), on: .add, times: 1)
    let engine = await RunningEngine(harness.engine)
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(true)
    let failed: [SyncStatus] = [
      .idle, .syncing(pending: 1), .failed(lastError: .server(status: 503, retryAfter: .seconds(30))),
    ]
    guard
      await waitForStatuses(
        failed.count, from: statuses, ending: connectivity, of: running,
        problem: { seen, outcome in
          "expected \(describe(failed)), got \(describe(seen)) and run(connectivity:) \(ran(outcome))"
        })
    else { return }
    // The engine runs on: wait for its sleeper as it registers, never for ever.
    await harness.clock.waitForSleepersWithinSafetyLimit()
    harness.clock.advance(by: .seconds(30))
    let expected = failed + [.syncing(pending: 1), .idle]
    let came = await statuses.waitFor(count: expected.count)
    let short = came ? "" : " (\(statuses.whyShort))"
    connectivity.finish()
    let outcome = await result(of: running)
    #expect(
      came && statuses.values == expected && harness.writes == ["POST /products/add", "POST /products/add"],
      guide.task(
        7,
        "expected the engine to try again once Retry-After's 30 s had passed on its clock, with no connectivity change: \(describe(expected)); got \(describe(statuses.values))\(short) and \(harness.writes)",
        blaming: outcome))
  }

  /// A sync that going offline cancelled is no failure: the engine goes on, and the next `true` sends the write.
  @Test func aSyncStoppedByGoingOfflineResumesWhenBackOnline() async throws {
    guard let (harness, engine) = try await aSyncHeldByTheCatalog() else { return }
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(false)
    let offline: [SyncStatus] = [.idle, .syncing(pending: 1), .offline]
    guard await statuses.waitFor(count: offline.count) else {
      Issue.record(
        guide.task(
          7, "expected \(describe(offline)) after yield(false), got \(describe(statuses.values)) (\(statuses.whyShort))"
        ))
      return
    }
    connectivity.yield(true)
    let expected = offline + [.syncing(pending: 1), .idle]
    let came = await statuses.waitFor(count: expected.count)
    let short = came ? "" : " (\(statuses.whyShort))"
    connectivity.finish()
    let outcome = came ? await result(of: running) : .success(())
    let left = try await harness.store.outbox()
    let kettles = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    #expect(
      came && statuses.values == expected && left.isEmpty && kettles == 1 && outcome.failure == nil,
      guide.task(
        kettles > 1 ? 5 : 7,
        "\(doubled(kettles))expected \(describe(expected)): a sync cancelled by going offline is not a failure and does not end the engine, and the next true sends the write (once); got \(describe(statuses.values))\(short), outbox \(left.map(\.state)), \(kettles) kettle(s), run(connectivity:) \(ran(outcome))",
        blaming: outcome))
  }

  @Test func offlineAndBackAtOnceSendsTheWriteAndEndsNoEngine() async throws {
    guard let (harness, engine) = try await aSyncHeldByTheCatalog() else { return }
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    // A network that drops and comes back at once: the stopped sync may not have ended yet.
    connectivity.yield(false)
    connectivity.yield(true)
    let offlineAt = await waitForStatus(statuses) { $0 == .offline } ? statuses.values.firstIndex(of: .offline) ?? 0 : 0
    let sent = await waitForStatus(statuses, after: offlineAt + 1) { $0 == .idle }
    connectivity.finish()
    let outcome = await result(of: running)
    let left = try await harness.store.outbox()
    let kettles = harness.api.products.filter { $0["title"]?.stringValue == "Kettle" }.count
    #expect(
      sent && left.isEmpty && kettles == 1 && outcome.failure == nil,
      guide.task(
        kettles > 1 ? 5 : 7,
        "\(doubled(kettles))expected yield(false) then yield(true) at once, during a sync, to send the write once and reach .idle, and run(connectivity:) to return when connectivity ended: the sync that going offline stopped is no failure, even if it ends after the device is back online; got \(describe(statuses.values)), outbox \(left.map(\.state)), \(kettles) kettle(s), run(connectivity:) \(ran(outcome))",
        blaming: outcome))
  }

  @Test func goingOfflineStopsARunningSync() async throws {
    guard let (harness, engine) = try await aSyncHeldByTheCatalog() else { return }
    defer { engine.stop() }
    let (statuses, connectivity, running) = (engine.statuses, engine.connectivity, engine.running)
    connectivity.yield(false)
    let expected: [SyncStatus] = [.idle, .syncing(pending: 1), .offline]
    let came = await statuses.waitFor(count: expected.count)
    let short = came ? "" : " (\(statuses.whyShort))"
    // A cancelled sync lets go of its request, which was waiting on the clock.
    let letGo = await eventually { harness.clock.sleeperCount == 0 }
    guard letGo else {
      Issue.record(
        guide.task(
          7,
          "expected yield(false) to cancel the running sync, whose request was still waiting for its answer; it went on (statuses \(describe(statuses.values)))"
        ))
      return
    }
    connectivity.finish()
    let outcome = await result(of: running)
    let left = try await harness.store.outbox()
    #expect(
      came && statuses.values == expected && left.map(\.state) == [.pending],
      guide.task(
        7,
        "expected going offline to stop the running sync at once (\(describe(expected))) with the write still waiting, got \(describe(statuses.values))\(short) and outbox \(left.map(\.state))",
        blaming: outcome))
  }
}

/// The engine running on a connectivity stream the test yields into, and a reader of its statuses.
/// A write waiting and the engine online, its sync's request held by the
/// catalog for 60 s on the test clock; `nil` when an earlier task is not done
/// (already recorded).
func aSyncHeldByTheCatalog(sourceLocation: SourceLocation = #_sourceLocation) async throws -> (
  Harness, RunningEngine
)? {
  guard await requireTask1(for: 7, sourceLocation: sourceLocation) else { return nil }
  let harness = try Harness()
  let write = { try await harness.repository.add(draft()) }
  guard await attempt(4, "a local write", for: 7, sourceLocation: sourceLocation, write) != nil else { return nil }
  harness.api.inject(.latency(.seconds(60)), on: .add, times: 1)
  let engine = await RunningEngine(harness.engine)
  engine.connectivity.yield(true)
  // The engine runs on: wait for its sleeper as it registers, never for ever.
  await harness.clock.waitForSleepersWithinSafetyLimit()
  return (harness, engine)
}

struct RunningEngine {
  let statuses: StreamReader<SyncStatus>
  let connectivity: AsyncStream<Bool>.Continuation
  let running: Task<Void, any Error>

  init(_ engine: any OutboxSyncing) async {
    statuses = StreamReader(await engine.statuses())
    let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
    connectivity = continuation
    running = Task { try await engine.run(connectivity: stream) }
  }

  /// Stops reading and stops the engine.
  func stop() {
    statuses.cancel()
    running.cancel()
  }
}

/// Waits for `count` statuses, as they arrive (at most `safetyLimit`: a sync
/// needs the fake catalog and the database). When they do not come, ends
/// connectivity, records `problem` of the statuses seen by then and of how
/// `run(connectivity:)` then ended, says why the wait ended, and returns `false`.
func waitForStatuses(
  _ count: Int, from statuses: StreamReader<SyncStatus>, ending connectivity: AsyncStream<Bool>.Continuation,
  of running: Task<Void, any Error>, problem: ([SyncStatus], Result<Void, any Error>) -> String,
  sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  guard !(await statuses.waitFor(count: count)) else { return true }
  let (seen, why) = (statuses.values, statuses.whyShort)
  connectivity.finish()
  let outcome = await result(of: running)
  Issue.record(guide.task(7, "\(problem(seen, outcome)) (\(why))", blaming: outcome), sourceLocation: sourceLocation)
  return false
}

/// Waits until a status after the first `count` is `wanted`, as statuses arrive:
/// `false` when the stream ends or the safety limit passes first.
func waitForStatus(
  _ statuses: StreamReader<SyncStatus>, after count: Int = 0, _ wanted: (SyncStatus) -> Bool
) async -> Bool {
  while !statuses.values.dropFirst(count).contains(where: wanted) {
    guard await statuses.waitFor(count: statuses.values.count + 1) else {
      return statuses.values.dropFirst(count).contains(where: wanted)
    }
  }
  return true
}

/// What `run(connectivity:)` did, for messages: "returned" or "threw …".
func ran(_ outcome: Result<Void, any Error>) -> String {
  outcome.failure.map { "threw \($0)" } ?? "returned"
}

/// Statuses as the doc writes them: `idle, offline, syncing(pending: 2)`, never `Optional(Lesson07.SyncStatus.idle)`.
func describe(_ statuses: [SyncStatus]) -> String {
  statuses.isEmpty
    ? "nothing"
    : statuses.map { status in
      switch status {
      case .idle: "idle"
      case .offline: "offline"
      case .syncing(let pending): "syncing(pending: \(pending))"
      case .failed(.storage(let failure)): "failed(lastError: storage(.\(failure)))"
      case .failed(let error): "failed(lastError: \(error))"
      }
    }.joined(separator: ", ")
}

/// Leads a message with the one fact that matters when the catalog holds the
/// write more than once: that is the outbox's keys (Task 5), whatever the statuses say.
private func doubled(_ kettles: Int) -> String {
  kettles > 1
    ? "the catalog holds the kettle \(kettles) times: a write sent again, once the device is back online or after a lost answer, carries the Idempotency-Key it was first sent with, so the catalog applies it once. In full: "
    : ""
}
