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

/// A shared operation for the coalescer's tests: counts its runs, waits until the
/// test opens the gate, and records whether it ended cancelled.
final class GatedOperation: Sendable {
  let runs = CountSignal()
  let ended = CountSignal()
  private let gate = CountSignal()
  private let cancelled = Mutex(0)
  let answer: Result<Int, RemoteDataSourceError>

  init(answer: Result<Int, RemoteDataSourceError> = .success(42)) { self.answer = answer }

  var cancelledRuns: Int { cancelled.withLock { $0 } }

  func open() { gate.increment() }

  @Sendable func run() async throws -> Int {
    runs.increment()
    defer { ended.increment() }
    await gate.wait(atLeast: 1)
    if Task.isCancelled {
      cancelled.withLock { $0 += 1 }
      throw CancellationError()
    }
    return try answer.get()
  }
}

/// Callers that `startCallers` or `startReaders` started, and whether they all joined one run.
struct Started<Success: Sendable> {
  var callers: [Task<Success, any Error>]
  /// Every caller waits in the coalescer's `flights`, and one run started.
  var joined: Bool
  /// What the test saw, for messages: runs started and callers waiting.
  var seen: String
}

/// A coalescer whose `waitersChanged` hook sets `waiting`, so a test sees its callers join.
struct ObservedCoalescer {
  let waiting = Gauge()
  let coalescer: RequestCoalescer<String, Int>

  init() { coalescer = RequestCoalescer(waitersChanged: waiting.hook) }
}

/// Waits until `count` callers wait in a coalescer, as its `waiting` gauge
/// shows, a second run has started, every caller has finished, or
/// `patienceTurns` turns have passed.
func waitForCallers<Success>(
  _ count: Int, waiting: Gauge, runs: CountSignal, named runName: String,
  callers: [Task<Success, any Error>]
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
    ? " (a caller that awaits the shared task's value is not waiting in flights, and can't leave when cancelled: give each caller its own continuation in flights[key].waiters)"
    : ""
  return Started(
    callers: callers, joined: waiting >= count && runs.count == 1,
    seen: "\(runs.count) \(runName)(s) started, \(waiting) of \(count) callers waiting in flights\(hint)")
}

/// Starts `count` callers of the same key and returns once they have all joined
/// the coalescer, or a second run has started, or they have all finished, or the
/// test has run out of patience.
func startCallers(
  _ count: Int, of observed: ObservedCoalescer, operation: GatedOperation
) async -> Started<Int> {
  let coalescer = observed.coalescer
  let callers = (0..<count).map { _ in
    Task { try await coalescer.value(for: "page 1", operation: operation.run) }
  }
  return await waitForCallers(count, waiting: observed.waiting, runs: operation.runs, named: "run", callers: callers)
}

/// Records an issue and returns `false` when the callers did not all wait for one
/// run: then there is no shared run to cancel, and the test has nothing to check.
func requireJoined(
  _ started: Started<Int>, opening operation: GatedOperation, sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  guard !started.joined else { return true }
  operation.open()
  let first = await started.callers[0].result
  Issue.record(
    guide.task(
      7,
      "\(started.callers.count) callers should each wait in flights for one run first: \(started.seen); first result \(first)",
      blaming: first),
    sourceLocation: sourceLocation)
  return false
}

/// Task 7: concurrent identical requests share one run; each caller may cancel alone.
@Suite(.timeLimit(.minutes(1)))
struct RequestCoalescerTests {
  @Test func aHundredIdenticalCallsShareOneRun() async throws {
    let coalescer = ObservedCoalescer()
    let operation = GatedOperation()
    let started = await startCallers(100, of: coalescer, operation: operation)
    operation.open()
    var results: [Result<Int, any Error>] = []
    for caller in started.callers { results.append(await caller.result) }
    let values = results.compactMap { try? $0.get() }
    #expect(
      started.joined && operation.runs.count == 1,
      guide.task(
        7,
        "100 concurrent calls for one key should each wait in flights for one run: \(started.seen); first result \(results[0])",
        blaming: results[0]))
    #expect(
      values.count == 100 && values.allSatisfy { $0 == 42 },
      guide.task(
        7, "all 100 callers get the run's value 42, got \(values.count) values; first result \(results[0])",
        blaming: results[0]))
  }

  @Test func anErrorReachesEveryCaller() async throws {
    let coalescer = ObservedCoalescer()
    let operation = GatedOperation(answer: .failure(.offline))
    let started = await startCallers(10, of: coalescer, operation: operation)
    operation.open()
    var errors: [(any Error)?] = []
    for caller in started.callers { errors.append(await caller.result.failure) }
    #expect(
      started.joined && operation.runs.count == 1 && errors.allSatisfy { $0 as? RemoteDataSourceError == .offline },
      guide.task(
        7,
        "10 callers of a run that fails should all get its error, offline, from 1 run: \(started.seen), first error \(String(describing: errors[0]))",
        blaming: errors[0]))
  }

  @Test func differentKeysRunSeparatelyAndAFinishedRunIsNotReused() async throws {
    let coalescer = RequestCoalescer<String, Int>()
    let operation = GatedOperation()
    operation.open()
    let outcome = await Result {
      async let first = coalescer.value(for: "a", operation: operation.run)
      async let second = coalescer.value(for: "b", operation: operation.run)
      _ = try await (first, second)
      return try await coalescer.value(for: "a", operation: operation.run)
    }
    #expect(
      (try? outcome.get()) == 42 && operation.runs.count == 3,
      guide.task(
        7,
        "keys a and b run separately, and a call after a's run finished starts a new one: expected 3 runs, got \(operation.runs.count); \(outcome)",
        blaming: outcome))
  }

  @Test func oneCallerCancelsAndTheOthersGetTheValue() async throws {
    let coalescer = ObservedCoalescer()
    let operation = GatedOperation()
    defer { operation.open() }  // Whatever happens, no caller is left waiting.
    let started = await startCallers(10, of: coalescer, operation: operation)
    let callers = started.callers
    guard await requireJoined(started, opening: operation) else { return }
    callers[3].cancel()
    // The shared run is still held: the cancelled caller must leave without it.
    let leftAlone = await finishesOnItsOwn(callers[3])
    operation.open()
    let cancelled = await callers[3].result
    var values: [Int] = []
    for (index, caller) in callers.enumerated() where index != 3 {
      if let value = try? await caller.value { values.append(value) }
    }
    #expect(
      leftAlone && cancelled.failure is CancellationError,
      guide.task(
        7,
        "the cancelled caller gets CancellationError at once, while the shared run is still held; \(leftAlone ? "got \(cancelled)" : "it kept waiting for the run, and got \(cancelled) only once the run ended: a cancelled caller must stop waiting (its own continuation, resumed from withTaskCancellationHandler's onCancel)")",
        blaming: cancelled))
    #expect(
      values == Array(repeating: 42, count: 9) && operation.cancelledRuns == 0 && operation.runs.count == 1,
      guide.task(
        7,
        "the 9 others still get 42 from the one run, which must not be cancelled: got \(values), \(operation.cancelledRuns) cancelled run(s)"
      ))
  }

  @Test func whenEveryCallerCancelsTheRunIsCancelled() async throws {
    let coalescer = ObservedCoalescer()
    let operation = GatedOperation()
    defer { operation.open() }
    let started = await startCallers(5, of: coalescer, operation: operation)
    let callers = started.callers
    guard await requireJoined(started, opening: operation) else { return }
    for caller in callers { caller.cancel() }
    let leftAlone = await finishesOnItsOwn(Task { for caller in callers { _ = await caller.result } })
    operation.open()
    var outcomes: [Result<Int, any Error>] = []
    for caller in callers { outcomes.append(await caller.result) }
    await operation.ended.wait(atLeast: 1)
    let shown = outcomes.map { outcome in
      switch outcome {
      case .success(let value): "\(value)"
      case .failure(let error): "\(error)"
      }
    }
    #expect(
      leftAlone && outcomes.allSatisfy { $0.failure is CancellationError },
      guide.task(
        7,
        "every cancelled caller gets CancellationError at once, while the run is still held; \(leftAlone ? "" : "they kept waiting for the run; ")got \(shown)"
      ))
    #expect(
      operation.cancelledRuns == 1,
      guide.task(7, "when the last caller cancels, the shared run must be cancelled too; it ran on uncancelled"))
  }

  @Test func aCallerCancelledBeforeItAsksStartsNothing() async throws {
    let coalescer = RequestCoalescer<String, Int>()
    let operation = GatedOperation()
    operation.open()
    let outcome = await Task {
      withUnsafeCurrentTask { $0?.cancel() }
      return try await coalescer.value(for: "page 1", operation: operation.run)
    }.result
    #expect(
      outcome.failure is CancellationError && operation.runs.count == 0,
      guide.task(
        7,
        "a caller already cancelled gets CancellationError and starts no run: got \(outcome), \(operation.runs.count) run(s)",
        blaming: outcome))
  }
}

/// Starts `count` network-first reads of the list and returns once they all wait
/// in `listFlights`, as the repository's `activity` shows, or a second network call has started, or they have all
/// finished, or the test has run out of patience.
func startReaders(_ count: Int, of harness: Harness) async -> Started<RepositoryAnswer<[Product]>> {
  let repository = harness.repository
  let callers = (0..<count).map { _ in Task { try await repository.products(policy: .networkFirst) } }
  return await waitForCallers(
    count, waiting: harness.activity.listCallers, runs: harness.remote.calls, named: "network call", callers: callers)
}

/// Task 7 through the repository: the network sees one call for many identical reads.
@Suite(.timeLimit(.minutes(1)))
struct RepositoryCoalescingTests {
  @Test func aHundredConcurrentReadsMakeOneNetworkCall() async throws {
    let harness = Harness(holdsCalls: true)
    let started = await startReaders(100, of: harness)
    await harness.remote.release()
    var answers: [Result<RepositoryAnswer<[Product]>, any Error>] = []
    for caller in started.callers { answers.append(await caller.result) }
    let (calls, writes) = (await harness.remote.listCalls, await harness.store.writes)
    #expect(
      calls == 1 && writes == 1,
      guide.task(
        7,
        "100 concurrent network-first reads should make 1 network call and 1 disk write, made \(calls) and \(writes); first answer \(describe(answers[0]))",
        blaming: answers[0]))
    #expect(
      answers.allSatisfy { (try? $0.get())?.value == firstPage },
      guide.task(7, "every caller gets the 30 products; first answer \(describe(answers[0]))", blaming: answers[0]))
  }

  @Test func oneReaderCancelsAndTheOthersGetTheNetworksList() async throws {
    let harness = Harness(holdsCalls: true)
    let started = await startReaders(10, of: harness)
    let callers = started.callers
    // Without one shared call there is nothing to test: let every call answer, and say so once.
    guard started.joined else {
      await harness.remote.release()
      let first = await callers[0].result.mapError { $0 as any Error }
      for caller in callers { _ = await caller.result }
      Issue.record(
        guide.task(
          7,
          "10 network-first readers should wait in listFlights for one network call before the test cancels one of them (\(started.seen)), so no reader was cancelled; send the list's download through listFlights. First answer: \(describe(first))",
          blaming: first))
      return
    }
    callers[3].cancel()
    let leftAlone = await finishesOnItsOwn(callers[3])
    await harness.remote.release()
    let cancelled = await callers[3].result.mapError { $0 as any Error }
    var others: [Result<RepositoryAnswer<[Product]>, any Error>] = []
    for (index, caller) in callers.enumerated() where index != 3 { others.append(await caller.result) }
    let (calls, cancelledCalls) = (await harness.remote.listCalls, await harness.remote.cancelledCalls)
    #expect(
      leftAlone && cancelled.failure is CancellationError,
      guide.task(
        7,
        "10 readers wait in listFlights for one network call (\(started.seen)); the one that cancels gets CancellationError at once, not the cache; \(leftAlone ? "" : "it kept waiting for the network, then ")got \(describe(cancelled))",
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
    var outcomes: [String] = []
    for caller in callers { outcomes.append(describe(await caller.result.mapError { $0 as any Error })) }
    let firstOutcome = await callers[0].result.mapError { $0 as any Error }
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
