import CourseClock
import CourseFixtures
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

let guide = StageGuide(
  doc: "Docs/07-OfflineFirstStreams.md",
  tasks: [
    1: "Broadcast every change",
    2: "Observe the store",
    3: "Page through the store",
    4: "Write locally with an outbox",
    5: "Replay the outbox in order",
    6: "Resolve conflicts",
    7: "Publish the sync status",
  ]
)

extension StageGuide {
  /// Names `task`, unless `outcome` shows another task's "not done yet": then
  /// the message names that task, the one the learner must finish first.
  func task(_ number: Int, _ message: String, blaming outcome: Any) -> Comment {
    guard let other = unfinishedTask(in: outcome), other != number else { return task(number, message) }
    return task(other, "finish this task first; Task \(number)'s test got \(outcome) (\(message))")
  }

  /// The task a "not done yet" in `outcome` names, if it is one of this stage's.
  func unfinishedTask(in outcome: Any) -> Int? {
    let text = String(describing: outcome)
    let marker = "Not done yet: Task "
    guard let range = text.range(of: marker),
      let other = Int(text[range.upperBound...].prefix { $0.isNumber }), tasks[other] != nil
    else { return nil }
    return other
  }
}

/// Runs `body`; when it throws, records an issue naming `task` (or the
/// unfinished task the error names) and returns `nil`. When `test`, the task
/// the calling test checks, is a later one, `task` is a prerequisite and the
/// message says so ("finish this task first; …").
func attempt<Value>(
  _ task: Int, _ expected: String, for test: Int? = nil, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Value
) async -> Value? {
  do {
    return try await body()
  } catch {
    let comment: Comment
    if let test, guide.unfinishedTask(in: error) == test {
      comment = guide.task(test, "expected \(expected), got error \(error)")
    } else if test == 6, error as? CatalogError == .rejected(status: 412) {
      // A 412 that leaves the sync is the conflict's to settle, not the replay's.
      comment = guide.task(
        6,
        "expected \(expected), got error rejected(status: 412): a conflict is settled by the policy, never thrown; a client-wins edit is sent again with a key the catalog has not answered yet (the entry's key plus -over- and the catalog's version)"
      )
    } else if let test, test != task {
      comment = guide.task(
        task, "finish this task first; Task \(test)'s test needed \(expected), got error \(error)", blaming: error)
    } else {
      comment = guide.task(task, "expected \(expected), got error \(error)", blaming: error)
    }
    Issue.record(comment, sourceLocation: sourceLocation)
    return nil
  }
}

/// `nil` when a broadcast hands a new subscriber its current value, then a
/// published one, and `finish()` ends the subscriber's stream; otherwise what went wrong. Every
/// test that reads a stream relies on both, and would wait without them.
func broadcastBasicsProblem() async -> String? {
  let broadcast = ProductBroadcast<Int>(7)
  let stream = broadcast.subscribe()
  // Published before anyone reads: every value must wait in the stream's buffer.
  broadcast.publish(8)
  broadcast.publish(9)
  let reader = StreamReader(stream)
  _ = await reader.waitFor(count: 3)
  let values = reader.values
  if values.isEmpty {
    return
      "a new subscriber of a broadcast holding 7 must get 7 first; it got \(reader.ended ? "a finished stream" : "nothing")"
  }
  if values != [7, 8, 9] {
    let hint =
      values == [8, 9]
      ? ": a new subscriber gets the current value first"
      : values.count < 3
        ? ": values published before the subscriber read them were dropped; keep them all (.unbounded, not .bufferingNewest)"
        : ""
    return
      "a new subscriber of a broadcast holding 7, with 8 and 9 published before it read anything, must get [7, 8, 9]; it got \(values)\(hint)"
  }
  guard await returnsOnItsOwnThread({ broadcast.finish() }) else {
    // Left reading, never cancelled: cancelling would run its onTermination, which may wait for the stuck lock.
    stuckReaders.withLock { $0.append(reader) }
    return
      "finish() never returned (given \(safetyLimit) on a thread of its own): it deadlocked, as it does when it finishes a stream while holding the lock that stream's onTermination takes (see Common mistakes)"
  }
  defer { reader.cancel() }
  if !(await reader.waitForEnd()) {
    return "finish() must end every stream; a subscriber's stream was still open after finish()"
  }
  return nil
}

/// The readers of broadcasts whose `finish()` never returned, kept so that
/// nothing ever cancels them.
let stuckReaders = Mutex<[StreamReader<Int>]>([])

/// Records an issue naming Task 1 and returns `false` while a broadcast does not
/// yet hand a subscriber its current value and a published one, or `finish()`
/// does not end its streams: later tasks' streams rely on all three.
func requireTask1(for number: Int, sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
  guard let problem = await broadcastBasicsProblem() else { return true }
  Issue.record(
    guide.task(1, "finish this task first; Task \(number)'s test observes a stream, and \(problem)"),
    sourceLocation: sourceLocation)
  return false
}

/// Records an issue naming Task 2 and returns `false` when `observe()` does not
/// give the stored list at once: the tests read that first value before anything
/// else happens, and would wait for it forever.
func requireObserveStartsWithTheStoredList(
  _ harness: Harness, for number: Int, sourceLocation: SourceLocation = #_sourceLocation
) async -> Bool {
  guard
    let stream = await attempt(
      2, "a stream of the stored list", for: number, { try await harness.repository.observe() })
  else { return false }
  let reader = StreamReader(stream)
  defer { reader.cancel() }
  guard !(await reader.waitFor(count: 1)) else { return true }
  let finish =
    number == 2 ? "" : "finish this task first; Task \(number)'s test reads the first value of observe(), and "
  Issue.record(
    guide.task(
      2,
      "\(finish)observe() must give the stored list at once, before any change: a screen that starts observing shows what the store holds, without waiting for the next write; it gave \(reader.ended ? "a finished stream" : "nothing")"
    ),
    sourceLocation: sourceLocation)
  return false
}

/// For Task 1's own tests: records an issue and returns `false` when the basics
/// every other broadcast test reads through are missing, instead of waiting.
func requireBroadcastBasics(sourceLocation: SourceLocation = #_sourceLocation) async -> Bool {
  guard let problem = await broadcastBasicsProblem() else { return true }
  Issue.record(
    guide.task(1, "\(problem) (checked first: the other broadcast tests read streams to their end)"),
    sourceLocation: sourceLocation)
  return false
}

/// Awaits `task`, cancelling it when the test is cancelled (by its time limit), so the suite never waits forever.
func result<Success: Sendable, Failure: Error>(of task: Task<Success, Failure>) async -> Result<Success, Failure> {
  await withTaskCancellationHandler {
    await task.result
  } onCancel: {
    task.cancel()
  }
}

/// The 194 real records as domain products.
let realProducts: [Product] = {
  do {
    return try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
  } catch {
    preconditionFailure("the fixture records must map; stage 02's mapping is finished code here: \(error)")
  }
}()

/// 2026-01-01 00:00:00 UTC: the wall-clock time of every test.
let testDate = Date(timeIntervalSince1970: 1_767_225_600)

/// A fixed wall clock to inject as `now`.
let testNow: @Sendable () -> Date = { testDate }

/// Retries without waiting: with `random` 0 every backoff is zero.
let quickRetries = RetryPolicy(
  maxAttempts: 3, baseDelay: .milliseconds(500), maxDelay: .seconds(4), maxRetryAfter: .seconds(10),
  budget: .seconds(10))

/// A database file of its own, removed when the test lets go of it.
final class TemporaryDatabase: Sendable {
  let path: String

  /// - Parameter inMemoryFileSystem: On Linux, put the file in `/dev/shm`, where
  ///   a commit does not wait for a disk: for tests that open hundreds of files.
  init(inMemoryFileSystem: Bool = false) {
    let shm = URL(fileURLWithPath: "/dev/shm")
    let folder =
      inMemoryFileSystem && FileManager.default.isWritableFile(atPath: shm.path)
      ? shm : FileManager.default.temporaryDirectory
    path = folder.appendingPathComponent("stage07-\(UUID().uuidString).sqlite").path
  }

  deinit { SQLiteConnection.removeDatabase(atPath: path) }

  /// Makes every write to the products and the outbox fail, as a full disk would,
  /// or lets them write again. A second connection installs the fault, so the test
  /// reaches nothing inside the store: the store sees a database that refuses writes.
  func refuseWrites(_ refuse: Bool) throws {
    let connection = try SQLiteConnection(path: path)
    for table in ["products", "outbox"] {
      for event in ["INSERT", "UPDATE", "DELETE"] {
        let name = "refuse_\(event.lowercased())_\(table)"
        try connection.execute(
          refuse
            ? "CREATE TRIGGER IF NOT EXISTS \(name) BEFORE \(event) ON \(table) BEGIN SELECT RAISE(ABORT, 'disk full'); END;"
            : "DROP TRIGGER IF EXISTS \(name)")
      }
    }
  }

  /// Makes the disk refuse new products once `rows` are stored, as a disk that
  /// fills halfway through a page does; a second connection installs the fault.
  func refuseProducts(after rows: Int) throws {
    try SQLiteConnection(path: path).execute(
      """
      CREATE TRIGGER refuse_products_when_full BEFORE INSERT ON products
      WHEN (SELECT count(*) FROM products) >= \(rows) BEGIN SELECT RAISE(ABORT, 'disk full'); END;
      """)
  }

  /// Makes every read of the outbox fail, or lets it read again: a second
  /// connection renames the table away and back, so the store's next statement
  /// on it fails (SQLite's "no such table"), as a locked or damaged file would.
  func refuseOutboxReads(_ refuse: Bool) throws {
    try SQLiteConnection(path: path).execute(
      refuse ? "ALTER TABLE outbox RENAME TO outbox_refused" : "ALTER TABLE outbox_refused RENAME TO outbox")
  }

  /// Makes the COMMIT of any transaction that writes product `id` fail, on a
  /// deferred foreign key the store's own connection checks: SQLite then rolls
  /// the whole transaction back.
  func failCommitsWriting(productID id: Int) throws {
    try SQLiteConnection(path: path).execute(
      """
      CREATE TABLE fault_parent (id INTEGER PRIMARY KEY);
      CREATE TABLE fault_child (parent INTEGER REFERENCES fault_parent (id) DEFERRABLE INITIALLY DEFERRED);
      CREATE TRIGGER fault_on_update AFTER UPDATE ON products WHEN NEW.id = \(id)
        BEGIN INSERT INTO fault_child VALUES (42); END;
      CREATE TRIGGER fault_on_insert AFTER INSERT ON products WHEN NEW.id = \(id)
        BEGIN INSERT INTO fault_child VALUES (42); END;
      """)
  }
}

/// Makes idempotency keys as the app does, and remembers them in order.
final class KeyLog: Sendable {
  private let made = Mutex<[String]>([])
  var keys: [String] { made.withLock { $0 } }

  func make() -> String {
    let key = UUID().uuidString
    made.withLock { $0.append(key) }
    return key
  }
}

/// A fake catalog, a store, the repository and the sync engine, wired as the app wires them.
struct Harness {
  let api: FakeCatalogAPI
  let clock: TestClock
  let store: OfflineProductStore
  let repository: OfflineFirstProductRepository
  let engine: any OutboxSyncing
  private let keyLog = KeyLog()

  /// - Parameters:
  ///   - api: The catalog; a new one with `products` when `nil`.
  ///   - path: The database; `:memory:` by default.
  ///   - remote: Wraps the real remote source, for a test double.
  init(
    api: FakeCatalogAPI? = nil, products: [JSONValue] = ProductFixtures.records, path: String = ":memory:",
    conflictPolicy: ConflictPolicy = .serverWins, random: @escaping @Sendable () -> Double = { 0 },
    remote wrap: (URLSessionProductRemoteDataSource) -> any ProductSyncRemoteDataSource = { $0 }
  ) throws {
    let clock = TestClock()
    let api = api ?? FakeCatalogAPI(products: products, clock: clock)
    let remote = wrap(URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, now: testNow))
    let keyLog = keyLog
    let store = try OfflineProductStore(path: path, makeKey: { keyLog.make() })
    self.api = api
    self.clock = clock
    self.store = store
    repository = OfflineFirstProductRepository(store: store, remote: remote, now: testNow)
    engine = OfflineAppDependencies.makeSyncEngine(
      store: store, remote: remote, retryPolicy: quickRetries, clock: clock, random: random,
      conflictPolicy: conflictPolicy)
  }

  /// The idempotency keys the store gave its outbox entries, oldest first, as
  /// the key maker handed them out.
  var entryKeys: [String] { keyLog.keys }

  /// The writes that reached the catalog, as "METHOD path".
  var writes: [String] {
    api.requests.filter { $0.method != "GET" }.map { "\($0.method) \($0.path)" }
  }

  /// What the catalog saw of a sync, for a message: the writes, the conflicts
  /// the engine kept, and, only when it is so, the writes that named a temporary id.
  func whatTheCatalogSaw() async -> String {
    let conflicts = await engine.conflicts.count
    let temporary = writes.filter { $0.contains("/products/-") || $0.hasSuffix("/products/0") }
    let named =
      temporary.isEmpty
      ? ""
      : "; \(temporary) named a temporary id, which only the device knows: until an add's answer, the entries behind it name the temporary id, and the answer gives them the catalog's (Task 5)"
    let refused =
      conflicts == 0
      ? ""
      : "; the catalog answered 412 to \(conflicts) of them: an entry's If-Match is the version the product had when the edit was made, or the one an earlier entry's answer gave (Task 5)"
    return "writes \(writes), \(conflicts) conflicts\(named)\(refused)"
  }
}

/// A product for the tests' local edits.
func draft(title: String = "Kettle", stock: Int = 3) -> Product {
  Product(
    id: 0, title: title, description: "A kettle", category: "kitchen-accessories", price: Decimal(string: "24.99")!,
    discountPercentage: 0, rating: 4, stock: stock, brand: nil, thumbnail: nil, updatedAt: testDate)
}

/// Titles in order, for short messages.
func titles(_ products: [Product]?) -> String {
  guard let products else { return "a finished stream" }
  return products.count > 5
    ? "\(products.count) products" : "[\(products.map(\.title).joined(separator: ", "))]"
}

/// `a == b`, behind a call so a failed expectation prints the message, not every product of both sides.
func same<Value: Equatable>(_ a: Value, _ b: Value) -> Bool { a == b }

extension FakeCatalogAPI {
  /// Another client changes a product in the catalog with a PATCH of `json`;
  /// the catalog stamps a new version, so the device's next write of it meets a 412.
  func theirEdit(id: Int, _ json: String) async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("products/\(id)"))
    request.httpMethod = "PATCH"
    request.httpBody = Data(json.utf8)
    _ = try await session.data(for: request)
  }

  /// Another client adds a product with `json`; the catalog numbers it.
  func theirAdd(_ json: String) async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("products/add"))
    request.httpMethod = "POST"
    request.httpBody = Data(json.utf8)
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    _ = try await session.data(for: request)
  }

  /// The id the catalog gave the product titled `title`, if it holds one.
  func catalogID(title: String) -> Int? {
    products.first { $0["title"]?.stringValue == title }?["id"]?.numberValue.map { Int($0) }
  }
}
