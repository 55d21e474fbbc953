import CourseClock
import CourseFixtures
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Tasks 4 to 6 under random schedules: edits of every kind, lost answers,
/// 2xx answers that can't be read (cut short or not JSON) for applied writes, 503s,
/// 409s for a key in flight, 412s from another client's edits, refreshes
/// interleaved with syncs, and restarts on the same file. After quiescence the
/// device must equal the catalog, the outbox must be empty, and every add must be
/// applied once.
///
/// Seeded and on the test clock. `COURSE_SCHEDULES=10000 swift test --filter
/// Solution07Tests.ScheduleTests` runs more of them, as a benchmark.
@Suite(.timeLimit(scheduleTimeLimit))
struct ScheduleTests {
  static let count = scheduleCount

  @Test func randomSchedulesLoseDoubleAndDivergeNothing() async throws {
    guard await requireTask1(for: 5) else { return }
    // Four schedules at a time, each with its own catalog, clock and file.
    let outcomes = await withTaskGroup(of: (UInt64, ScheduleTally, Result<ScheduleProblem?, any Error>).self) { group in
      var outcomes: [(UInt64, ScheduleTally, Result<ScheduleProblem?, any Error>)] = []
      var seeds = (1...UInt64(Self.count)).makeIterator()
      var stopped = false
      func add() {
        guard !stopped, let seed = seeds.next() else { return }
        group.addTask {
          var tally = ScheduleTally()
          let problem = await Result {
            var schedule = try Schedule(seed: seed)
            return try await schedule.run(&tally)
          }
          return (seed, tally, problem)
        }
      }
      for _ in 0..<4 { add() }
      while let outcome = await group.next() {
        outcomes.append(outcome)
        // The first failure is enough, and the one to report: no new schedule
        // starts, and the running ones end on their own (cancelling one mid-request
        // would tear its catalog down under it).
        if case .success(nil) = outcome.2 { add() } else { stopped = true }
      }
      return outcomes
    }
    if let (seed, tally, outcome) = outcomes.first(where: { if case .success(nil) = $0.2 { false } else { true } }) {
      let steps = tally.lastSteps.joined(separator: ", ")
      switch outcome {
      case .failure(let error):
        let task = guide.unfinishedTask(in: error) ?? 5
        Issue.record(
          guide.task(
            task, "finish this task first; the schedules (Tasks 4 to 6) need it, got error \(error)", blaming: error))
      case .success(let problem):
        Issue.record(
          guide.task(
            problem?.task ?? 5,
            "schedule with seed \(seed) (of \(Self.count)) went wrong: \(problem?.text ?? ""). Steps: \(steps)"))
      }
      return
    }
    let total = outcomes.reduce(into: ScheduleTally()) { total, outcome in total.add(outcome.1) }
    print(
      "Schedules: \(outcomes.count), steps \(total.steps), lost answers \(total.lost), unreadable 2xx answers \(total.unreadable), 503s \(total.unavailable), 409s \(total.busy), 412s \(total.conflicts), restarts \(total.restarts), store errors \(total.storeErrors): 0 lost, 0 doubled, 0 diverged"
    )
  }
}

/// What went wrong in a schedule, and the task whose behaviour it is.
struct ScheduleProblem: Sendable {
  var task = 5
  var text: String

  init(task: Int = 5, _ text: String) {
    self.task = task
    self.text = text
  }
}

/// How many schedules run: 100 in the suite (every kind of step about a hundred
/// times, and the whole suite within its time), thousands as a benchmark.
let scheduleCount = ProcessInfo.processInfo.environment["COURSE_SCHEDULES"].flatMap(Int.init) ?? 100
/// A minute for the suite's hundred; a benchmark's thousands get a minute per 1,000 more.
let scheduleTimeLimit = TimeLimitTrait.Duration.minutes(1 + scheduleCount / 1000)

/// What the schedules did, for the summary.
struct ScheduleTally {
  var steps = 0
  var lost = 0
  var unreadable = 0
  var unavailable = 0
  var busy = 0
  var conflicts = 0
  var restarts = 0
  var storeErrors = 0
  var lastSteps: [String] = []

  mutating func add(_ other: ScheduleTally) {
    steps += other.steps
    lost += other.lost
    unreadable += other.unreadable
    unavailable += other.unavailable
    busy += other.busy
    conflicts += other.conflicts
    restarts += other.restarts
    storeErrors += other.storeErrors
  }
}

/// One random schedule against one catalog and one database file.
struct Schedule {
  private var random: SplitMix64
  private let clock = TestClock()
  private let api: FakeCatalogAPI
  private let file = TemporaryDatabase(inMemoryFileSystem: true)
  private var store: OfflineProductStore
  private var repository: OfflineFirstProductRepository
  private var engine: any OutboxSyncing
  private var addsMade = 0

  init(seed: UInt64) throws {
    random = SplitMix64(seed: seed)
    api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(5)), clock: clock)
    (store, repository, engine) = try Self.open(file.path, api, clock, seed: seed)
  }

  /// The app's parts on the file, as a fresh launch makes them.
  private static func open(_ path: String, _ api: FakeCatalogAPI, _ clock: TestClock, seed: UInt64) throws -> (
    OfflineProductStore, OfflineFirstProductRepository, any OutboxSyncing
  ) {
    let remote = URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow)
    let store = try OfflineProductStore(path: path)
    let policies: [ConflictPolicy] = [.serverWins, .clientWins]
    let engine = OfflineAppDependencies.makeSyncEngine(
      store: store, remote: remote, retryPolicy: .never, clock: clock, random: { 0 },
      conflictPolicy: policies[Int(seed % 2)])
    return (store, OfflineFirstProductRepository(store: store, remote: remote, now: testNow), engine)
  }

  /// Runs the schedule; `nil` when all is well, or what went wrong.
  mutating func run(_ tally: inout ScheduleTally) async throws -> ScheduleProblem? {
    tally.lastSteps = []
    func note(_ step: String) { tally.lastSteps.append(step) }
    try await tolerating { _ = try await repository.refresh() }
    for _ in 0..<Int.random(in: 8...16, using: &random) {
      tally.steps += 1
      let shown = (try? await store.products()) ?? []
      switch Int.random(in: 0..<13, using: &random) {
      case 0, 1:
        guard var product = shown.randomElement(using: &random) else { continue }
        product.title = "Edit \(Int.random(in: 0..<1000, using: &random))"
        product.stock = Int.random(in: 0...50, using: &random)
        note("update \(product.id)")
        try await tolerating { _ = try await repository.update(product) }
      case 2:
        addsMade += 1
        note("add \(addsMade)")
        try await tolerating { _ = try await repository.add(draft(title: "Added \(addsMade)")) }
      case 3:
        guard let product = shown.randomElement(using: &random) else { continue }
        note("delete \(product.id)")
        try await tolerating { _ = try await repository.delete(id: product.id) }
      case 4:
        // Another client edits the catalog: the device's next write of it meets a 412.
        guard let product = api.products.randomElement(using: &random), let id = product["id"]?.numberValue else {
          continue
        }
        note("their edit \(Int(id))")
        tally.conflicts += 1
        try await theirEdit(id: Int(id))
      case 5:
        note("lost answer")
        tally.lost += 1
        api.inject(.answerLost, on: [.add, .update, .delete].randomElement(using: &random), times: 1)
      case 6:
        note("503")
        tally.unavailable += 1
        api.inject(.status(503, message: "Busy"), times: 1)
      case 7:
        note("409")
        tally.busy += 1
        api.inject(.status(409, message: "Still answering that key"), on: .update, times: 1)
      case 8:
        note("refresh during a sync")
        api.inject(.latency(.seconds(1)), on: .list, times: 1)
        let refresh = Task { [repository] in try await repository.refresh() }
        await clock.waitForSleepers(whileRunning: refresh)
        try await tolerating { _ = try await engine.syncNow() }
        clock.advance(by: .seconds(1))
        try await tolerating { _ = try await refresh.value }
      case 10:
        // The catalog applies the write, but its 2xx can't be read: half a body,
        // plain text, or (in process) a body cut short.
        let fault = [Fault.answerCut, .answerNotJSON, .truncatedBody].randomElement(using: &random) ?? .answerCut
        let route = [Route.add, .update, .delete].randomElement(using: &random) ?? .add
        note("unreadable answer (\(fault)) on \(route)")
        tally.unreadable += 1
        api.inject(fault, on: route, times: 1)
      case 11:
        // The database refuses for a while (a full disk, or a file another
        // process holds), during a sync and a refresh: the catalog may apply a
        // write the device can't record; sent again with its key, it applies once.
        let full = Bool.random(using: &random)
        note(full ? "disk full during a sync" : "outbox unreadable during a sync")
        tally.storeErrors += 1
        try full ? file.refuseWrites(true) : file.refuseOutboxReads(true)
        try await tolerating { _ = try await engine.syncNow() }
        try await tolerating { _ = try await repository.refresh() }
        try full ? file.refuseWrites(false) : file.refuseOutboxReads(false)
      case 9:
        note("restart")
        tally.restarts += 1
        (store, repository, engine) = try Self.open(file.path, api, clock, seed: random.next())
      default:
        note("sync")
        try await tolerating { _ = try await engine.syncNow() }
      }
    }
    return try await quiesce(after: tally.lastSteps)
  }

  /// Runs a step that may fail as a real network makes it fail; a lesson's
  /// "not done yet" is thrown on, so the test names the unfinished task.
  /// - Returns: The failure it let pass, `nil` when the step succeeded.
  @discardableResult
  private func tolerating(_ step: () async throws -> Void) async throws -> (any Error)? {
    do {
      try await step()
      return nil
    } catch  where guide.unfinishedTask(in: error) != nil {
      throw error
    } catch {
      return error
    }
  }

  private func theirEdit(id: Int) async throws {
    // It meets the faults aimed at the device's writes too; whatever it gets, the catalog decided.
    try? await api.theirEdit(id: id, #"{"title": "Theirs \#(id)"}"#)
  }

  /// Lets the network behave, syncs until the outbox is empty, refreshes, and compares.
  private func quiesce(after steps: [String]) async throws -> ScheduleProblem? {
    // Device and catalog that differ at the end: any task's mistake may do it. With
    // another client's edit among the steps, conflicts were resolved too, so the
    // schedule names the later task; a lower task's own tests, failing, come first.
    let diverged =
      steps.contains { $0.hasPrefix("their edit") }
      ? (task: 6, why: " (another client edited the catalog in this schedule, so its conflicts are suspects too)")
      : (task: 5, why: "")
    api.clearFaults()
    var lastFailure: (any Error)?
    for _ in 0..<10 where (try await store.pendingCount()) > 0 {
      lastFailure = try await tolerating { try await engine.syncNow() }
    }
    do {
      try await repository.refresh()
    } catch {
      return ScheduleProblem("the last refresh failed: \(error)")
    }
    let outbox = try await store.outbox()
    guard outbox.isEmpty else {
      let left = "the outbox still holds \(outbox.map { "\($0.kind) \($0.productID) \($0.state)" })"
      // A conflict that ended set aside, or threw its 412, is Task 6's: resolving a 412 settles the entry, whoever wins.
      let conflict =
        outbox.contains {
          if case .setAside(let reason) = $0.state { reason.contains("412") } else { false }
        } || lastFailure as? CatalogError == .rejected(status: 412)
      // A write the catalog answered 404 names a product it never had: a temporary id
      // nobody replaced (Task 5), or a catalog id whose product a page dropped or
      // replaced while the change waited (Task 4).
      let missing = outbox.filter {
        if case .setAside(let reason) = $0.state {
          reason.contains("404") || reason.contains("notFound")
        } else {
          false
        }
      }
      if !conflict, let entry = missing.first {
        return entry.productID <= 0
          ? ScheduleProblem(
            task: 5,
            "\(left): the catalog answered 404 to an entry that still names temporary id \(entry.productID); an add's answer gives the entries behind it the catalog's id"
          )
          : ScheduleProblem(
            task: 5,
            "\(left): the catalog answered 404 to the \(entry.kind) of product \(entry.productID): a write sent before the add it depends on (a failed entry must stop the sync, never be skipped), or a page that dropped, replaced or brought back the product while a change of it waited (Task 4)"
          )
      }
      return conflict
        ? ScheduleProblem(
          task: 6,
          "\(left): a conflict (412) was set aside or thrown instead of resolved; server wins keeps the catalog's copy, client wins sends the edit again against the catalog's current version, with a key the catalog has not answered yet"
        )
        : ScheduleProblem(task: diverged.task, "\(left)\(diverged.why)")
    }
    let device = try await store.products()
    let catalog = api.products
    let deviceIDs = device.map(\.id).sorted()
    let catalogIDs = catalog.compactMap { $0["id"]?.numberValue.map { Int($0) } }.sorted()
    guard deviceIDs == catalogIDs else {
      return ScheduleProblem(
        task: diverged.task, "the device holds ids \(deviceIDs), the catalog \(catalogIDs)\(diverged.why)")
    }
    for product in device {
      let theirs = catalog.first { $0["id"]?.numberValue == Double(product.id) }
      let (title, stock) = (theirs?["title"]?.stringValue, theirs?["stock"]?.numberValue.map { Int($0) })
      let version = theirs?["meta"]?["updatedAt"]?.stringValue
      guard product.title == title, product.stock == stock, product.version == version else {
        return ScheduleProblem(
          task: diverged.task,
          "product \(product.id) is \"\(product.title)\", stock \(product.stock), version \(product.version ?? "none") here, \"\(title ?? "none")\", stock \(stock.map(String.init) ?? "none"), version \(version ?? "none") in the catalog"
        )
      }
    }
    let titles = catalog.compactMap { $0["title"]?.stringValue }.filter { $0.hasPrefix("Added ") }
    guard Set(titles).count == titles.count else {
      return ScheduleProblem("an add was applied twice: \(titles.sorted())")
    }
    return nil
  }
}
