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
    let revalidating = Task { await harness.waitForRevalidations() }
    let started = await waitFor({ await harness.remote.calls.wait(atLeast: 1) }, unlessFinished: revalidating)
    await harness.remote.release()
    await revalidating.value
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
    let revalidating = Task { await harness.waitForRevalidations() }
    let started = await waitFor({ await harness.remote.calls.wait(atLeast: 1) }, unlessFinished: revalidating)
    // Once Task 7 shares the network call, extra refreshes no longer show as calls: they join its flight.
    // Give them time to show either way; one refresh never does, and the wait runs out of patience.
    let flights = await harness.repository.listFlights
    _ = await waitFor(
      {
        await withTaskGroup(of: Void.self) { group in
          group.addTask { await flights.waitForWaiters(count: 2) }
          group.addTask { await harness.remote.calls.wait(atLeast: 2) }
          group.addTask { await runOutOfPatience() }
          await group.next()
          group.cancelAll()
        }
      }, unlessFinished: revalidating)
    let waiting = await flights.waiterCount
    await harness.remote.release()
    await revalidating.value
    let calls = await harness.remote.listCalls
    #expect(
      started && calls == 1 && waiting <= 1,
      guide.task(
        6,
        "5 stale reads while one refresh runs should start exactly 1 background refresh (check revalidations[resource] first): made \(calls) network call(s), \(waiting) refresh(es) waiting in listFlights for one; first answer: \(describe(answers[0]))",
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
