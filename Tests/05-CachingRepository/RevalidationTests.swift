import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Reads the list stale-while-revalidate while `harness` holds the network: the
/// answer must come without it. A call still waiting after `patienceTurns` turns
/// waits for the network; the network is released so the test can go on.
///
/// - Returns: The call's outcome, and whether it came without the network.
func readStaleWhileTheNetworkIsHeld(
  _ harness: Harness
) async -> (answer: Result<RepositoryAnswer<[Product]>, any Error>, atOnce: Bool) {
  let call = Task { try await harness.repository.products(policy: .staleWhileRevalidate) }
  let atOnce = await finishesOnItsOwn(call)
  if !atOnce { await harness.remote.release() }
  return (await call.result, atOnce)
}

/// Task 6: stale-while-revalidate answers at once and refreshes in the
/// background, once, and a test can wait for that refresh without sleeping.
@Suite(.timeLimit(.minutes(1)))
struct RevalidationTests {
  @Test func answersFromTheCacheWhileTheRefreshWaitsForTheNetwork() async throws {
    let harness = Harness(network: .success(PolicyTableTests.networkList), holdsCalls: true)
    try await harness.seedList(age: 500)
    let (answer, atOnce) = await readStaleWhileTheNetworkIsHeld(harness)
    try #require(
      atOnce && (try? answer.get())?.origin == .disk && (try? answer.get())?.isStale == true,
      guide.task(
        5,
        "a stale list is answered at once from disk, marked stale, while the network is still busy; \(atOnce ? "" : "the call waited for the network, and once it was released ")got \(describe(answer))",
        blaming: answer))
    // Ends when no refresh runs: at once when none started, so no wait below outlasts the refresh.
    let revalidating = harness.activity.untilNoRevalidationRuns()
    let started = await waitFor({ await harness.remote.calls.wait(atLeast: 1) }, unlessFinished: revalidating)
    await harness.remote.release()
    revalidating.cancel()
    await harness.waitForRevalidations()
    #expect(
      started, guide.task(6, "past the soft age a background refresh should ask the network; none did", blaming: answer)
    )
    let next = await Result { try await harness.repository.products(policy: .cacheFirst) }
    #expect(
      Bool(
        same(
          try? next.get(),
          RepositoryAnswer(
            value: PolicyTableTests.networkList, origin: .memory, fetchedAt: harness.now.date, isStale: false))),
      guide.task(
        6,
        "after the background refresh, the next read is the network's list, fresh, from memory; got \(describe(next))",
        blaming: next))
  }

  @Test func manyStaleReadsStartOneRefresh() async throws {
    let harness = Harness(holdsCalls: true)
    try await harness.seedList(age: 500)
    var answers: [Result<RepositoryAnswer<[Product]>, any Error>] = []
    for _ in 0..<5 { answers.append(await readStaleWhileTheNetworkIsHeld(harness).answer) }
    // Ends when no refresh runs: at once when none started, so no wait below outlasts the refresh.
    let revalidating = harness.activity.untilNoRevalidationRuns()
    let started = await waitFor({ await harness.remote.calls.wait(atLeast: 1) }, unlessFinished: revalidating)
    // Once Task 7 shares the network call, extra refreshes no longer show as calls: they join its flight.
    // Give them time to show either way; one refresh never does, and the wait runs out of patience.
    let listCallers = harness.activity.listCallers
    _ = await waitFor(
      {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await listCallers.wait(atLeast: 2) }
          group.addTask { await harness.remote.calls.wait(atLeast: 2) }
          group.addTask { await runOutOfPatience() }
          await group.next()
          group.cancelAll()
        }
      }, unlessFinished: revalidating)
    let waiting = listCallers.value
    await harness.remote.release()
    revalidating.cancel()
    await harness.waitForRevalidations()
    let calls = await harness.remote.listCalls
    #expect(
      started && calls == 1 && waiting <= 1,
      guide.task(
        6,
        "5 stale reads while one refresh runs should start exactly 1 background refresh (start none while one runs): made \(calls) network call(s), \(waiting) refresh(es) waiting for one shared request; first answer: \(describe(answers[0]))",
        blaming: answers[0]))
  }

  @Test func aFreshEntryIsNotRefreshed() async throws {
    let harness = Harness()
    try await harness.seedList(age: 99)
    let answer = await Result { try await harness.repository.products(policy: .staleWhileRevalidate) }
    await harness.waitForRevalidations()
    let calls = await harness.remote.listCalls
    let served = try? answer.get()
    #expect(
      calls == 0 && served?.isStale == false && served?.origin != .network,
      guide.task(
        6,
        "a list 99 s old (soft age 100 s) is served from the cache, not stale, and needs no refresh; made \(calls) call(s) and answered \(describe(answer))",
        blaming: answer))
  }

  @Test func aFailedRefreshIsReportedAndTheStaleEntryStays() async throws {
    let harness = Harness(network: .failure(.offline))
    try await harness.seedList(age: 500)
    let answer = await Result { try await harness.repository.products(policy: .staleWhileRevalidate) }
    await harness.waitForRevalidations()
    let after = await Result { try await harness.repository.products(policy: .cacheOnly) }
    #expect(
      harness.diagnostics.recorded == ["revalidationFailed(offline)"],
      guide.task(
        6, "a failed background refresh is reported once as .revalidationFailed, got \(harness.diagnostics.recorded)",
        blaming: answer))
    #expect(
      Bool(same((try? after.get())?.value, firstPage)) && (try? after.get())?.isStale == true,
      guide.task(6, "after a failed refresh the stale list is still served, got \(describe(after))", blaming: after))
  }
}

/// Task 6: a background refresh belongs to its repository. Told to stop, or let
/// go while the network is held, the repository cancels it: the request ends
/// cancelled, nothing is written, and nothing is reported as a failure.
@Suite(.timeLimit(.minutes(1)))
struct RevalidationOwnershipTests {
  /// A refresh whose request went on after it was cancelled, while callers shared
  /// requests, most likely went through a shared request that ignores its callers'
  /// cancellation: Task 7's, not the refresh's.
  static func taskAtFault(ended: Bool, shared: Bool) -> Int { !ended && shared ? 7 : 6 }

  static func sharedRequestNote(ended: Bool, shared: Bool) -> String {
    guard !ended, shared else { return "" }
    return "the refresh's request goes through a shared request, which must end when its last caller is "
      + "cancelled, and from which each caller leaves at once when it is cancelled (see Task 7's messages too): "
  }

  @Test func lettingTheRepositoryGoCancelsItsRefresh() async throws {
    let now = TestNow()
    let remote = SpyProductRemoteDataSource(holdsCalls: true)
    let disk: any ProductCacheStore = InMemoryProductCacheStore()
    let store = SpyCacheStore(wrapping: disk)
    let diagnostics = DiagnosticsSpy()
    let activity = ActivitySpy()
    try await disk.saveList(firstPage, fetchedAt: now.date.addingTimeInterval(-500))
    var repository: CachingProductRepository? = CachingProductRepository(
      remote: remote, store: store, lifetimes: testLifetimes, now: now.provider, diagnostics: diagnostics.hook,
      activity: activity.hook)
    weak let probe = repository
    let answer: Result<RepositoryAnswer<[Product]>, any Error>
    do {
      answer = .success(try await repository!.products(policy: .staleWhileRevalidate))
    } catch {
      answer = .failure(error)
    }
    let asked = await finishesOnItsOwn(Task { await remote.calls.wait(atLeast: 1) }, cancelling: true)
    guard asked else {
      await remote.release()
      Issue.record(
        guide.task(
          6,
          "a list 500 s old should start a background refresh that asks the network; none did, answer \(describe(answer))",
          blaming: answer))
      return
    }
    repository = nil
    // Nothing more is needed from the test: the refresh's request must end, cancelled, on its own.
    let ended = await finishesOnItsOwn(Task { await remote.ended.wait(atLeast: 1) }, cancelling: true)
    // Read before the network answers: once the refresh has finished, whatever held
    // the repository has let it go too.
    let heldWhileWaiting = probe != nil
    await remote.release()
    await remote.ended.wait(atLeast: 1)
    let (cancelled, writes) = (await remote.cancelledCalls, await store.writes)
    let shared = activity.sawSharedRequests && !heldWhileWaiting
    #expect(
      ended && cancelled == 1 && writes == 0 && !heldWhileWaiting,
      guide.task(
        Self.taskAtFault(ended: ended, shared: shared),
        Self.sharedRequestNote(ended: ended, shared: shared)
          + "the app let the repository go while its background refresh waited for the network: the repository should go away and cancel the refresh (deinit), so its request ends cancelled and nothing is written; \(ended ? "" : "the request went on until the test let the network answer, ")\(cancelled) request(s) ended cancelled, \(writes) disk write(s), the repository \(heldWhileWaiting ? "was still alive while its refresh waited: something holds it strongly; the refresh's Task must hold it weakly ([weak self]), and so must everything the refresh runs" : "went away")",
        blaming: answer))
    #expect(
      diagnostics.recorded.isEmpty,
      guide.task(
        6, "a cancelled refresh did not fail: diagnostics should hear nothing, got \(diagnostics.recorded)",
        blaming: answer))
  }

  @Test func cancelRevalidationsStopsTheRefreshAndReportsNoFailure() async throws {
    let harness = Harness(network: .success(PolicyTableTests.networkList), holdsCalls: true)
    try await harness.seedList(age: 500)
    let answer = await Result { try await harness.repository.products(policy: .staleWhileRevalidate) }
    let asked = await finishesOnItsOwn(Task { await harness.remote.calls.wait(atLeast: 1) }, cancelling: true)
    guard asked else {
      await harness.remote.release()
      Issue.record(
        guide.task(
          6,
          "a list 500 s old should start a background refresh that asks the network; none did, answer \(describe(answer))",
          blaming: answer))
      return
    }
    await harness.repository.cancelRevalidations()
    let ended = await finishesOnItsOwn(Task { await harness.remote.ended.wait(atLeast: 1) }, cancelling: true)
    await harness.remote.release()
    await harness.waitForRevalidations()
    let (cancelled, writes) = (await harness.remote.cancelledCalls, await harness.store.writes)
    let shared = harness.activity.sawSharedRequests
    #expect(
      ended && cancelled == 1 && writes == 0,
      guide.task(
        Self.taskAtFault(ended: ended, shared: shared),
        Self.sharedRequestNote(ended: ended, shared: shared)
          + "cancelRevalidations() stops the refresh waiting for the network: its request should end cancelled at once, and nothing be written; \(ended ? "" : "the request went on until the test let the network answer; ")\(cancelled) request(s) ended cancelled, \(writes) disk write(s)",
        blaming: answer))
    #expect(
      harness.diagnostics.recorded.isEmpty,
      guide.task(
        6,
        "a cancelled refresh did not fail: diagnostics should hear nothing, got \(harness.diagnostics.recorded) (a CancellationError, or any error once the refresh's task is cancelled, is no .revalidationFailed)",
        blaming: answer))
    let again = await Result { try await harness.repository.products(policy: .staleWhileRevalidate) }
    await harness.waitForRevalidations()
    let calls = await harness.remote.listCalls
    #expect(
      calls == 2,
      guide.task(
        6,
        "after cancelRevalidations(), a later stale read starts a new refresh: expected a second network call, made \(calls) in all; answer \(describe(again))",
        blaming: again))
  }
}
