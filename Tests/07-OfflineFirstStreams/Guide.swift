import CourseClock
import CourseFixtures
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

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
    let text = String(describing: outcome)
    let marker = "Not done yet: Task "
    guard let range = text.range(of: marker),
      let other = Int(text[range.upperBound...].prefix { $0.isNumber }),
      other != number, tasks[other] != nil
    else { return task(number, message) }
    return task(other, "finish this task first; Task \(number)'s test got \(text) (\(message))")
  }
}

/// Runs `body`; when it throws, records an issue naming `task` (or the
/// unfinished task the error names) and returns `nil`.
func attempt<Value>(
  _ task: Int, _ expected: String, sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () async throws -> Value
) async -> Value? {
  do {
    return try await body()
  } catch {
    Issue.record(
      guide.task(task, "expected \(expected), got error \(error)", blaming: error), sourceLocation: sourceLocation)
    return nil
  }
}

/// Records an issue naming Task 1 and returns `false` while a broadcast does not
/// yet hand a subscriber its current value: later tasks' streams rely on it.
func requireTask1(for number: Int) async -> Bool {
  let broadcast = ProductBroadcast<Int>(7)
  var values = broadcast.subscribe().makeAsyncIterator()
  let first = await values.next()
  broadcast.finish()
  if first != 7 {
    Issue.record(
      guide.task(
        1,
        "finish this task first; Task \(number)'s test observes a stream, and a new subscriber of a broadcast holding 7 got \(first.map(String.init) ?? "a finished stream")"
      ))
    return false
  }
  return true
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
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage07-\(UUID().uuidString).sqlite").path

  deinit { SQLiteConnection.removeDatabase(atPath: path) }
}

/// A fake catalog, a store, the repository and the sync engine, wired as the app wires them.
struct Harness {
  let api: FakeCatalogAPI
  let clock: TestClock
  let store: OfflineProductStore
  let repository: OfflineFirstProductRepository
  let engine: ProductSyncEngine

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
    let store = try OfflineProductStore(path: path)
    self.api = api
    self.clock = clock
    self.store = store
    repository = OfflineFirstProductRepository(store: store, remote: remote, now: testNow)
    engine = ProductSyncEngine(
      store: store, remote: remote, retryPolicy: quickRetries, clock: clock, random: random,
      conflictPolicy: conflictPolicy)
  }

  /// The writes that reached the catalog, as "METHOD path".
  var writes: [String] {
    api.requests.filter { $0.method != "GET" }.map { "\($0.method) \($0.path)" }
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
