import CourseClock
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// Callers that `startReaders` started, and whether they all joined one network call.
struct Started<Success: Sendable> {
  var callers: [Task<Success, any Error>]
  /// Every caller is reported waiting for one shared request, and one network call started.
  var joined: Bool
  /// What the test saw, for messages: network calls started and callers waiting.
  var seen: String
}

/// Waits until `count` callers are reported waiting for a shared request, as
/// the repository's `activity` shows, a second network call has started, every
/// caller has finished, or `patienceTurns` turns have passed.
func waitForCallers<Success>(
  _ count: Int, waiting: Gauge, runs: CountSignal, callers: [Task<Success, any Error>]
) async -> Started<Success> {
  let all = Task { for caller in callers { _ = await caller.result } }
  _ = await waitFor(
    {
      await withTaskGroup(of: Void.self) { group in
        group.addTask { await waiting.wait(atLeast: count) }
        group.addTask { await runs.wait(atLeast: 2) }
        group.addTask { await runOutOfPatience() }
        await group.next()
        group.cancelAll()
      }
    }, unlessFinished: all)
  let waiting = waiting.value
  let hint =
    waiting == 0 && runs.count == 1
    ? " (no caller was reported waiting: report .listCallersWaiting / .productCallersWaiting through activity each time the number of callers waiting for a shared request changes, from the moment a caller joins until it has its answer or has left)"
    : ""
  return Started(
    callers: callers, joined: waiting >= count && runs.count == 1,
    seen: "\(runs.count) network call(s) started, \(waiting) of \(count) callers waiting for a shared request\(hint)")
}

/// Starts `count` reads of the list with `policy` and returns once they all wait
/// for one shared request, as the repository's `activity` shows, or a second
/// network call has started, or they have all finished, or the test has run out of patience.
func startReaders(
  _ count: Int, of harness: Harness, policy: CachePolicy = .networkFirst
) async -> Started<RepositoryAnswer<[Product]>> {
  let repository = harness.repository
  let callers = (0..<count).map { _ in Task { try await repository.products(policy: policy) } }
  return await waitForCallers(
    count, waiting: harness.activity.listCallers, runs: harness.remote.calls, callers: callers)
}

/// The outcome of every caller, once the network has answered, or `nil` when
/// one has not heard back long after: then the test has recorded an issue
/// naming Task 7 (a caller the shared request never answered) and cancelled them.
func outcomes<Success: Sendable>(
  of callers: [Task<Success, any Error>], sourceLocation: SourceLocation = #_sourceLocation
) async -> [Result<Success, any Error>]? {
  let all = Task { for caller in callers { _ = await caller.result } }
  let gaveUp = await waitFor(
    { for _ in 0..<20 where !Task.isCancelled { await runOutOfPatience() } }, unlessFinished: all)
  guard !gaveUp else {
    for caller in callers { caller.cancel() }
    Issue.record(
      guide.task(
        7,
        "\(callers.count) callers shared a request and the network answered, but not every caller heard back: hand the shared request's one result or error to every caller still waiting"
      ), sourceLocation: sourceLocation)
    return nil
  }
  var results: [Result<Success, any Error>] = []
  for caller in callers { results.append(await caller.result) }
  return results
}

/// Task 7 through the repository: the network sees one call for many identical reads.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryCoalescingTests {
  @Test func aHundredConcurrentReadsMakeOneNetworkCall() async throws {
    let harness = Harness(holdsCalls: true)
    let started = await startReaders(100, of: harness)
    await harness.remote.release()
    guard let answers = await outcomes(of: started.callers) else { return }
    let (calls, writes) = (await harness.remote.listCalls, await harness.store.writes)
    #expect(
      started.joined && calls == 1 && writes == 1,
      guide.task(
        7,
        "100 concurrent network-first reads should each wait for one shared request, and make 1 network call and 1 disk write: \(started.seen); made \(calls) call(s) and \(writes) write(s); first answer \(describe(answers[0]))",
        blaming: answers[0]))
    #expect(
      answers.allSatisfy { (try? $0.get())?.value == firstPage },
      guide.task(7, "every caller gets the 30 products; first answer \(describe(answers[0]))", blaming: answers[0]))
  }

  @Test func aHundredConcurrentReadsOfAProductMakeOneNetworkCall() async throws {
    let harness = Harness(holdsCalls: true)
    let repository = harness.repository
    let wanted = firstPage[2].id
    let callers = (0..<100).map { _ in Task { try await repository.product(id: wanted, policy: .networkFirst) } }
    let started = await waitForCallers(
      100, waiting: harness.activity.productCallers, runs: harness.remote.calls, callers: callers)
    await harness.remote.release()
    guard let answers = await outcomes(of: callers) else { return }
    let (calls, writes) = (await harness.remote.productCalls, await harness.store.writes)
    #expect(
      started.joined && calls == [wanted] && writes == 1
        && answers.allSatisfy { (try? $0.get())?.value.id == wanted },
      guide.task(
        7,
        "100 concurrent network-first reads of product \(wanted) should share one request: \(started.seen); \(calls.count) request(s) of product(s) \(Set(calls).sorted()), \(writes) disk write(s); first answer \(describe(answers[0]))",
        blaming: answers[0]))
  }

  @Test func anErrorReachesEveryCaller() async throws {
    let harness = Harness(network: .failure(.offline), holdsCalls: true)
    let started = await startReaders(10, of: harness, policy: .networkOnly)
    await harness.remote.release()
    guard let results = await outcomes(of: started.callers) else { return }
    let calls = await harness.remote.listCalls
    #expect(
      started.joined && calls == 1 && results.allSatisfy { $0.failure as? RemoteDataSourceError == .offline },
      guide.task(
        7,
        "10 network-only readers sharing a request that fails should all get its error, offline, from 1 network call: \(started.seen); \(calls) call(s), first outcome \(describe(results[0]))",
        blaming: results[0]))
  }

  @Test func differentResourcesAskSeparatelyAndAFinishedRequestIsNotReused() async throws {
    let harness = Harness(holdsCalls: true)
    let repository = harness.repository
    let (one, two) = (firstPage[0].id, firstPage[1].id)
    let callers: [Task<String, any Error>] = [
      Task { "\(try await repository.products(policy: .networkOnly).value.count) products" },
      Task { "product \(try await repository.product(id: one, policy: .networkOnly).value.id)" },
      Task { "product \(try await repository.product(id: two, policy: .networkOnly).value.id)" },
    ]
    let asked = await finishesOnItsOwn(Task { await harness.remote.calls.wait(atLeast: 3) }, cancelling: true)
    await harness.remote.release()
    guard let results = await outcomes(of: callers) else { return }
    let later = await harness.products(.networkOnly)
    let (listCalls, productCalls) = (await harness.remote.listCalls, await harness.remote.productCalls)
    #expect(
      asked && listCalls == 2 && productCalls.sorted() == [one, two].sorted() && (try? later.get()) != nil,
      guide.task(
        7,
        "the list, product \(one) and product \(two), asked at once, are three requests, and a read after the list's request finished asks again: expected 2 list calls and products [\(one), \(two)], made \(listCalls) and \(productCalls); got \(results.map(\.described)), then \(describe(later))",
        blaming: results.compactMap(\.failure).first ?? later.failure))
  }

  @Test func aCallerCancelledBeforeItAsksStartsNothing() async throws {
    let harness = Harness()
    let repository = harness.repository
    let outcome = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await repository.products(policy: .networkFirst)
    }.result
    let calls = await harness.remote.totalCalls
    #expect(
      outcome.failure is CancellationError && calls == 0,
      guide.task(
        7,
        "a caller already cancelled gets CancellationError and starts no request: got \(describe(outcome)), \(calls) network call(s)",
        blaming: outcome))
  }

  @Test func oneReaderCancelsAndTheOthersGetTheNetworksList() async throws {
    let harness = Harness(holdsCalls: true)
    let started = await startReaders(10, of: harness)
    let callers = started.callers
    // Without one shared call there is nothing to test: let every call answer, and say so once.
    guard started.joined else {
      await harness.remote.release()
      guard let first = await outcomes(of: callers)?.first else { return }
      Issue.record(
        guide.task(
          7,
          "10 network-first readers should wait for one shared request before the test cancels one of them (\(started.seen)), so no reader was cancelled. First answer: \(describe(first))",
          blaming: first))
      return
    }
    callers[3].cancel()
    let leftAlone = await finishesOnItsOwn(callers[3])
    await harness.remote.release()
    guard var others = await outcomes(of: callers) else { return }
    let cancelled = others.remove(at: 3)
    let (calls, cancelledCalls) = (await harness.remote.listCalls, await harness.remote.cancelledCalls)
    #expect(
      leftAlone && cancelled.failure is CancellationError,
      guide.task(
        7,
        "10 readers wait for one shared request (\(started.seen)); the one that cancels gets CancellationError at once, not the cache; \(leftAlone ? "" : "it kept waiting for the network, then ")got \(describe(cancelled))",
        blaming: others[0]))
    #expect(
      calls == 1 && cancelledCalls == 0 && others.allSatisfy { (try? $0.get())?.origin == .network },
      guide.task(
        7,
        "the 9 others share the one network call, which goes on: \(calls) call(s), \(cancelledCalls) cancelled, first answer \(describe(others[0]))",
        blaming: others[0]))
  }

  @Test func whenEveryReaderCancelsTheNetworkCallIsCancelled() async throws {
    let harness = Harness(holdsCalls: true)
    let started = await startReaders(3, of: harness)
    let callers = started.callers
    for caller in callers { caller.cancel() }
    let leftAlone = await finishesOnItsOwn(Task { for caller in callers { _ = await caller.result } })
    await harness.remote.release()
    guard let results = await outcomes(of: callers) else { return }
    let outcomes = results.map { describe($0) }
    let firstOutcome = results[0]
    await harness.remote.ended.wait(atLeast: await harness.remote.totalCalls)
    let (calls, cancelled) = (await harness.remote.listCalls, await harness.remote.cancelledCalls)
    #expect(
      leftAlone && calls == 1 && cancelled == 1,
      guide.task(
        7,
        "3 readers sharing one call all cancel: \(leftAlone ? "" : "they kept waiting for the network; ")the one network call should end cancelled; calls \(calls), cancelled \(cancelled), outcomes \(outcomes)",
        blaming: firstOutcome))
  }
}
