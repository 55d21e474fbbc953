import CourseClock
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// How old the cached list is when the call is made (list ages: soft 100 s, hard 1,000 s).
enum CacheAge: String, CaseIterable, Sendable {
  case fresh, softStale, hardStale, missing

  /// Seconds before now that the list was fetched, or `nil` for nothing cached.
  var seconds: TimeInterval? {
    switch self {
    case .fresh: 10
    case .softStale: 500
    case .hardStale: 5_000
    case .missing: nil
    }
  }
}

/// What a call should end with.
enum Outcome: Equatable, Sendable, CustomStringConvertible {
  /// The cached list from disk, with its own fetch time.
  case cached(stale: Bool)
  /// The network's list, fetched now.
  case network
  /// The network's error, unchanged.
  case offline
  case nothingCached

  var description: String {
    switch self {
    case .cached(let stale): "disk, \(stale ? "stale" : "not stale")"
    case .network: "network, not stale"
    case .offline: "error offline"
    case .nothingCached: "error nothingCached"
    }
  }
}

/// One row of the table: a policy, a cache age and a network, and what must happen.
struct PolicyRow: Sendable, CustomTestStringConvertible {
  var policy: CachePolicy
  var age: CacheAge
  var networkWorks: Bool
  var outcome: Outcome
  /// Network calls, counted after background refreshes have finished.
  var remoteCalls: Int
  /// Whether the disk holds the network's answer afterwards.
  var stores: Bool

  init(_ policy: CachePolicy, _ age: CacheAge, _ network: String, _ outcome: Outcome, calls: Int, stores: Bool) {
    self.policy = policy
    self.age = age
    networkWorks = network == "ok"
    self.outcome = outcome
    remoteCalls = calls
    self.stores = stores
  }

  var testDescription: String { "\(policy), \(age), network \(networkWorks ? "ok" : "fails")" }
}

/// Task 5: every policy × every cache age × a network that works or fails, each
/// row with the answer it must give, the calls it may make and what it stores.
@Suite(.timeLimit(.minutes(1)))
struct PolicyTableTests {
  static let rows: [PolicyRow] = [
    // network-first: the network when it answers; else the cache within its hard age, marked stale.
    PolicyRow(.networkFirst, .fresh, "ok", .network, calls: 1, stores: true),
    PolicyRow(.networkFirst, .fresh, "fails", .cached(stale: true), calls: 1, stores: false),
    PolicyRow(.networkFirst, .softStale, "ok", .network, calls: 1, stores: true),
    PolicyRow(.networkFirst, .softStale, "fails", .cached(stale: true), calls: 1, stores: false),
    PolicyRow(.networkFirst, .hardStale, "ok", .network, calls: 1, stores: true),
    PolicyRow(.networkFirst, .hardStale, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.networkFirst, .missing, "ok", .network, calls: 1, stores: true),
    PolicyRow(.networkFirst, .missing, "fails", .offline, calls: 1, stores: false),
    // cache-first: fresh cache without a call; else the network; else stale cache.
    PolicyRow(.cacheFirst, .fresh, "ok", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.cacheFirst, .fresh, "fails", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.cacheFirst, .softStale, "ok", .network, calls: 1, stores: true),
    PolicyRow(.cacheFirst, .softStale, "fails", .cached(stale: true), calls: 1, stores: false),
    PolicyRow(.cacheFirst, .hardStale, "ok", .network, calls: 1, stores: true),
    PolicyRow(.cacheFirst, .hardStale, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.cacheFirst, .missing, "ok", .network, calls: 1, stores: true),
    PolicyRow(.cacheFirst, .missing, "fails", .offline, calls: 1, stores: false),
    // stale-while-revalidate: the cache at once, and one background refresh past the soft age.
    PolicyRow(.staleWhileRevalidate, .fresh, "ok", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.staleWhileRevalidate, .fresh, "fails", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.staleWhileRevalidate, .softStale, "ok", .cached(stale: true), calls: 1, stores: true),
    PolicyRow(.staleWhileRevalidate, .softStale, "fails", .cached(stale: true), calls: 1, stores: false),
    PolicyRow(.staleWhileRevalidate, .hardStale, "ok", .network, calls: 1, stores: true),
    PolicyRow(.staleWhileRevalidate, .hardStale, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.staleWhileRevalidate, .missing, "ok", .network, calls: 1, stores: true),
    PolicyRow(.staleWhileRevalidate, .missing, "fails", .offline, calls: 1, stores: false),
    // network-only: the network or its error; the cache is neither read nor written.
    PolicyRow(.networkOnly, .fresh, "ok", .network, calls: 1, stores: false),
    PolicyRow(.networkOnly, .fresh, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.networkOnly, .softStale, "ok", .network, calls: 1, stores: false),
    PolicyRow(.networkOnly, .softStale, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.networkOnly, .hardStale, "ok", .network, calls: 1, stores: false),
    PolicyRow(.networkOnly, .hardStale, "fails", .offline, calls: 1, stores: false),
    PolicyRow(.networkOnly, .missing, "ok", .network, calls: 1, stores: false),
    PolicyRow(.networkOnly, .missing, "fails", .offline, calls: 1, stores: false),
    // cache-only: the cache within its hard age, never a call.
    PolicyRow(.cacheOnly, .fresh, "ok", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.cacheOnly, .fresh, "fails", .cached(stale: false), calls: 0, stores: false),
    PolicyRow(.cacheOnly, .softStale, "ok", .cached(stale: true), calls: 0, stores: false),
    PolicyRow(.cacheOnly, .softStale, "fails", .cached(stale: true), calls: 0, stores: false),
    PolicyRow(.cacheOnly, .hardStale, "ok", .nothingCached, calls: 0, stores: false),
    PolicyRow(.cacheOnly, .hardStale, "fails", .nothingCached, calls: 0, stores: false),
    PolicyRow(.cacheOnly, .missing, "ok", .nothingCached, calls: 0, stores: false),
    PolicyRow(.cacheOnly, .missing, "fails", .nothingCached, calls: 0, stores: false),
  ]

  /// The list the network answers with: different from the cached one, so the origin shows in the value too.
  static let networkList = Array(realProducts[30..<60])

  /// What one row's call did.
  struct Run: Sendable {
    var row: PolicyRow
    var answer: Result<RepositoryAnswer<[Product]>, any Error>
    /// The answer as the table names it, or `nil` when it is none of the table's outcomes.
    var got: Outcome?
    var calls: Int
    var stored: Result<CacheEntry<[Product]>?, any Error>

    var answered: Bool { got == row.outcome }
    var storedNetworkList: Bool { (try? stored.get())?.value == PolicyTableTests.networkList }
  }

  /// Makes one row's call on a new harness, and waits for its background refresh.
  static func run(_ row: PolicyRow) async throws -> Run {
    let harness = Harness(network: row.networkWorks ? .success(networkList) : .failure(.offline))
    let cachedAt = row.age.seconds.map { harness.now.date.addingTimeInterval(-$0) }
    if let seconds = row.age.seconds { try await harness.seedList(age: seconds) }
    let answer = await harness.products(row.policy)
    await harness.waitForRevalidations()
    let got: Outcome? =
      switch answer {
      case .success(let value)
      where value.origin == .network && value.value == networkList && value.fetchedAt == harness.now.date
        && !value.isStale:
        .network
      case .success(let value) where value.origin == .disk && value.value == firstPage && value.fetchedAt == cachedAt:
        .cached(stale: value.isStale)
      case .failure(let error as RemoteDataSourceError) where error == .offline: .offline
      case .failure(let error as CacheError) where error == .nothingCached: .nothingCached
      default: nil
      }
    return Run(
      row: row, answer: answer, got: got, calls: await harness.remote.listCalls,
      stored: await Result { try await harness.disk.cachedList() })
  }

  /// One policy's 8 rows. A row with the wrong answer is one mistake: its calls
  /// and its disk follow from it, so they are checked only once the answer is
  /// right, and its disk only once its calls are.
  @Test(arguments: CachePolicy.allCases)
  func eachPolicyAgeAndNetwork(policy: CachePolicy) async throws {
    var runs: [Run] = []
    for row in Self.rows where row.policy == policy { runs.append(try await Self.run(row)) }
    // Cache-only is the read through the tiers, Task 3; every other policy is Task 5's.
    await guide.expectEvery(
      runs, task: policy == .cacheOnly ? 3 : 5, "\(policy): every row should give the table's answer"
    ) { run in
      // A call that never returned has its own issue, naming the task it blames.
      run.answered || run.answer.failure is NeverReturned
        ? nil
        : ("\(run.row.testDescription): expected \(run.row.outcome), got \(describe(run.answer))", run.answer.failure)
    }
    let answered = runs.filter(\.answered)
    // Stale-while-revalidate's call past the soft age is the background refresh, Task 6.
    let isRefresh = { (run: Run) in run.row.policy == .staleWhileRevalidate && run.row.age == .softStale }
    for (task, rule, rows) in [
      (
        policy == .cacheOnly ? 3 : 5, "\(policy): every row should make the table's network calls",
        answered.filter { !isRefresh($0) }
      ),
      (6, "\(policy): past the soft age, one background refresh should ask the network", answered.filter(isRefresh)),
    ] where !rows.isEmpty {
      await guide.expectEvery(rows, task: task, rule) { run in
        run.calls == run.row.remoteCalls
          ? nil : ("\(run.row.testDescription): expected \(run.row.remoteCalls) call(s), made \(run.calls)", nil)
      }
    }
    // What the background refresh writes is Task 6's; network-only writing at all is Task 5's; the rest Task 4's.
    let counted = answered.filter { $0.calls == $0.row.remoteCalls }
    for (task, rows) in [
      (policy == .networkOnly ? 5 : 4, counted.filter { !isRefresh($0) }), (6, counted.filter(isRefresh)),
    ] where !rows.isEmpty {
      await guide.expectEvery(
        rows, task: task,
        task == 6
          ? "\(policy): past the soft age, the disk should hold what the background refresh fetched exactly when the table says"
          : "\(policy): the disk should hold the network's list afterwards exactly when the table says"
      ) { run in
        run.storedNetworkList == run.row.stores
          ? nil
          : (
            "\(run.row.testDescription): expected \(run.row.stores ? "" : "no ")network list on disk, found \(run.stored.map { $0.map { "\($0.value.count) products fetched at \($0.fetchedAt)" } ?? "nothing" }.described)",
            nil
          )
      }
    }
  }
}

/// Task 5, the rules the table can't show in one row.
@Suite(.timeLimit(.minutes(1)))
struct PolicyTests {
  @Test func cacheOnlyTellsNothingCachedFromCachedAndEmpty() async throws {
    let nothing = Harness()
    let empty = Harness()
    try await empty.seedList([], age: 10)
    let none = await nothing.products(.cacheOnly)
    let some = await empty.products(.cacheOnly)
    #expect(
      none.failure as? CacheError == .nothingCached,
      guide.task(
        3, "cache-only with nothing cached throws CacheError.nothingCached, got \(describe(none))",
        blaming: none))
    #expect(
      (try? some.get())?.value == [] && (try? some.get())?.origin == .disk,
      guide.task(
        3, "cache-only with an empty list cached answers [] from disk, not an error; got \(describe(some))",
        blaming: some))
  }

  @Test func networkOnlyNeverTouchesTheCache() async throws {
    let harness = Harness()
    try await harness.seedList(age: 10)
    let answer = try await guide.attempt(5, "network-only should answer from the network") {
      try await harness.repository.products(policy: .networkOnly)
    }
    let (reads, writes) = (await harness.store.reads, await harness.store.writes)
    #expect(
      answer.origin == .network && reads == 0 && writes == 0,
      guide.task(
        5,
        "network-only asks the network and neither reads nor writes the store: got \(describe(.success(answer))), \(reads) reads, \(writes) writes"
      ))
    let after = await harness.products(.cacheOnly)
    #expect(
      (try? after.get())?.origin == .disk,
      guide.task(
        5, "network-only must not put its answer in memory either; the next cache read came from \(describe(after))",
        blaming: after))
  }

  @Test(arguments: [(99.0, 0), (100, 1), (101, 1)])
  func cacheFirstAsksTheNetworkFromTheSoftAgeOn(age: TimeInterval, calls: Int) async throws {
    let harness = Harness()
    try await harness.seedList(age: age)
    let answer = await harness.products(.cacheFirst)
    let made = await harness.remote.listCalls
    #expect(
      made == calls,
      guide.task(
        5,
        "cache-first with a list \(age) s old (soft age 100 s) should make \(calls) call(s), made \(made); answer \(describe(answer))",
        blaming: answer))
  }

  @Test(arguments: [(999.0, true), (1_000, false), (1_001, false)])
  func cacheOnlyServesUntilTheHardAge(age: TimeInterval, served: Bool) async throws {
    let harness = Harness()
    try await harness.seedList(age: age)
    let answer = await harness.products(.cacheOnly)
    #expect(
      ((try? answer.get()) != nil) == served,
      guide.task(
        3,
        "cache-only with a list \(age) s old (hard age 1,000 s) should \(served ? "serve it" : "throw nothingCached"), got \(describe(answer))",
        blaming: answer))
  }

  @Test func readingNeverExtendsAnEntrysLife() async throws {
    let harness = Harness(network: .failure(.offline))
    try await harness.seedList(age: 0)
    var outcomes: [String] = []
    for _ in 0..<9 {
      harness.now.advance(by: 111)
      outcomes.append(describe(await harness.products(.cacheFirst)))
    }
    harness.now.advance(by: 1)  // 1,000 s after the fetch
    let expired = await harness.products(.cacheOnly)
    #expect(
      expired.failure as? CacheError == .nothingCached,
      guide.task(
        5,
        "read 9 times over 999 s, the list still expires 1,000 s after its fetch: expected nothingCached, got \(describe(expired)); the read at 999 s: \(outcomes.last ?? "none")",
        blaming: expired))
  }

  @Test func aProductComesFromAFreshListWithoutARequest() async throws {
    let harness = Harness()
    let wanted = firstPage[12]
    let answer = await Result {
      _ = try await harness.repository.products(policy: .networkFirst)
      return try await harness.repository.product(id: wanted.id, policy: .cacheFirst)
    }
    let productCalls = await harness.remote.productCalls
    #expect(
      Bool(
        same(
          try? answer.get(),
          RepositoryAnswer(value: wanted, origin: .memory, fetchedAt: harness.now.date, isStale: false)))
        && productCalls.isEmpty,
      guide.task(
        5,
        "product \(wanted.id) is in the list fetched just now: expected it from memory with no request, got \(describe(answer)) and requests \(productCalls)",
        blaming: answer))
  }

  @Test func aProductComesFromTheListOnDiskAfterARestart() async throws {
    let file = TemporaryDatabase()
    let wanted = firstPage[3]
    let first = Harness(store: try openSQLiteStore(file.path))
    let fetched = await first.products(.networkFirst)
    try #require(
      (try? fetched.get()) != nil,
      guide.task(5, "the first fetch should work, got \(describe(fetched))", blaming: fetched))
    let restarted = Harness(store: try openSQLiteStore(file.path))
    restarted.now.set(first.now.date.addingTimeInterval(5))
    let answer = await restarted.product(wanted.id, .cacheFirst)
    let productCalls = await restarted.remote.productCalls
    #expect(
      Bool(
        same(
          try? answer.get(), RepositoryAnswer(value: wanted, origin: .disk, fetchedAt: first.now.date, isStale: false)))
        && productCalls.isEmpty,
      guide.task(
        5,
        "after a restart, product \(wanted.id) (5 s old, in the saved list) comes from disk with the list's fetch time and no request; got \(describe(answer)), requests \(productCalls)",
        blaming: answer))
  }

  /// The policies that ask the network with a servable list cached, and the list's age:
  /// fresh for network-first, soft-stale for cache-first, so both must ask.
  @Test(arguments: [(CachePolicy.networkFirst, 10.0), (.cacheFirst, 500)])
  func aCancelledCallIsNotAnsweredFromTheCache(policy: CachePolicy, age: TimeInterval) async throws {
    let harness = Harness(holdsCalls: true)
    try await harness.seedList(age: age)
    let call = Task { try await harness.repository.products(policy: policy) }
    let reached = await waitFor({ await harness.remote.calls.wait(atLeast: 1) }, unlessFinished: call)
    call.cancel()
    // The network is still held: a cancelled caller must leave without it.
    let leftAlone = await finishesOnItsOwn(call)
    await harness.remote.release()
    let answer = await call.result.mapError { $0 as any Error }
    try #require(
      leftAlone,
      guide.task(
        7,
        "\(policy) cancelled while the network is held: a cancelled caller should stop waiting at once, on its own, but this one still waited for the held network call; once released it got \(describe(answer))"
      ))
    guard reached else {
      Issue.record(
        guide.task(
          5,
          "\(policy) with a list \(Int(age)) s old must ask the network before it answers (the test cancels while that call is held); it answered without a call: \(describe(answer))",
          blaming: answer))
      return
    }
    #expect(
      answer.failure is CancellationError,
      guide.task(
        5,
        "\(policy) (list \(Int(age)) s old) cancelled while the network is held should throw CancellationError, not fall back to the cache: got \(describe(answer))",
        blaming: answer))
  }
}
