import CourseFixtures
import CourseSQLite
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

let guide = StageGuide(
  doc: "Docs/05-CachingRepository.md",
  tasks: [
    1: "Judge an entry's age",
    2: "Remember when each entry was fetched",
    3: "Read through memory, then disk",
    4: "Write through, and never hide a network answer",
    5: "Decide by policy",
    6: "Revalidate in the background",
    7: "Share one request",
    8: "Show how fresh it is",
  ]
)

extension StageGuide {
  /// Names `task`, unless `outcome` failed with a lesson stub's "not done yet":
  /// then the message names the stub's task, the one the learner must finish first.
  /// A call the test gave up on (`NeverReturned`) names the task its issue blamed.
  func task(_ number: Int, _ message: String, blaming outcome: Result<some Any, any Error>) -> Comment {
    if let hang = outcome.failure as? NeverReturned { return task(hang.task, message) }
    return task(number, message, blaming: outcome.failure)
  }

  /// Names `task`, or the task the first of `errors` blames: a stub's, or that of a call the test gave up on.
  func task(_ number: Int, _ message: String, blamingFirstOf errors: [(any Error)?]) -> Comment {
    let first = errors.compactMap { $0 }.first
    if let hang = first as? NeverReturned { return task(hang.task, message) }
    return task(number, message, blaming: first)
  }
}

/// The 194 real records as domain products, through stage 02's finished mapping,
/// as Tests/04 reads them: the depth-limited `JSONDecoder.catalog()`, `ProductDTO`, `toDomain()`.
let realProducts: [Product] = {
  do {
    return try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
  } catch {
    preconditionFailure("the fixture records must map; stage 02's mapping is finished code here: \(error)")
  }
}()

/// The first page as the Catalog API serves it.
let firstPage = Array(realProducts.prefix(30))

/// A wall clock the test sets: the repository's `now`.
final class TestNow: Sendable {
  private let current: Mutex<Date>

  /// Starts at 2026-01-01 00:00:00 UTC.
  init(_ start: Date = Date(timeIntervalSince1970: 1_767_225_600)) { current = Mutex(start) }

  var date: Date { current.withLock { $0 } }
  func set(_ value: Date) { current.withLock { $0 = value } }
  func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

  /// The provider to inject.
  var provider: @Sendable () -> Date { { self.date } }
}

/// Lifetimes with round numbers: list fresh for 100 s, served for 1,000 s; product 10 s and 100 s.
let testLifetimes = CacheLifetimes(list: MaxAge(soft: 100, hard: 1_000), product: MaxAge(soft: 10, hard: 100))

/// Collects what the repository reports through `diagnostics`.
final class DiagnosticsSpy: Sendable {
  private let events = Mutex<[String]>([])

  var hook: @Sendable (CacheDiagnostic) -> Void {
    { event in self.events.withLock { $0.append(Self.describe(event)) } }
  }

  var recorded: [String] { events.withLock { $0 } }

  static func describe(_ event: CacheDiagnostic) -> String {
    switch event {
    case .readFailed(let error): "readFailed(\(error))"
    case .writeFailed(let error): "writeFailed(\(error))"
    case .revalidationFailed(let error): "revalidationFailed(\(error))"
    }
  }
}

/// A database file in the temporary folder, removed with its WAL files and any
/// `.unreadable` copy `openOrReset(path:)` made, when the value goes away.
struct TemporaryDatabase: ~Copyable {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage05-\(UUID().uuidString).sqlite").path

  deinit {
    SQLiteConnection.removeDatabase(atPath: path)
    SQLiteConnection.removeDatabase(atPath: path + ".unreadable")
  }
}

/// Opens a SQLite store, or fails the test naming Task 2: migration 3 must run first.
func openSQLiteStore(_ path: String = ":memory:") throws -> SQLiteProductLocalDataSource {
  let opened = Result { try SQLiteProductLocalDataSource(path: path) }
  return try #require(
    try? opened.get(),
    guide.task(
      2, "SQLiteProductLocalDataSource(path: \"\(path)\") must open and run migration 3, got \(opened)",
      blaming: opened)
  )
}

extension Product {
  static func sample(id: Int, title: String = "Sample") -> Product {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: 1, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 1_746_006_062))
  }
}

/// Shows an outcome as a short line: "network, stale, 30 products" or "error offline".
func describe<Value>(_ outcome: Result<RepositoryAnswer<Value>, any Error>) -> String {
  switch outcome {
  case .success(let answer):
    let count = (answer.value as? [Product]).map { "\($0.count) products" } ?? "1 product"
    return "\(answer.origin), \(answer.isStale ? "stale" : "not stale"), fetched \(answer.fetchedAt), \(count)"
  case .failure(let error) where unfinishedTask(in: error) != nil:
    // The comment already names the stub's task; say what is missing, once.
    let text = String(describing: error)
    return "not written yet (\(text.range(of: guide.doc + ": ").map { text[$0.upperBound...] } ?? text[...]))"
  case .failure(let error):
    return "error \(error)"
  }
}

/// Calls `MaxAge.freshness(fetchedAt:now:)` with `try` whether or not it throws:
/// the lesson's stub throws, the solution's does not.
func freshness(of maxAge: MaxAge, fetchedAt: Date, now: Date) throws -> Freshness {
  let judge: (MaxAge) -> (Date, Date) throws -> Freshness = MaxAge.freshness(fetchedAt:now:)
  return try judge(maxAge)(fetchedAt, now)
}

/// `a == b`, behind a call so a failed expectation prints the message, not every product of both sides.
func same<Value: Equatable>(_ a: Value, _ b: Value) -> Bool { a == b }
