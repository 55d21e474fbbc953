import CourseFixtures
import CourseSQLite
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution04
#else
  @testable import Lesson04
#endif

let guide = StageGuide(
  doc: "Docs/04-LocalPersistence.md",
  tasks: [
    1: "Create the table",
    2: "Migrate to version 2",
    3: "Map rows to products and back",
    4: "Save all or nothing",
    5: "Read newest first",
  ]
)

/// The 194 real records as domain products, through stage 02's finished DTO mapping.
let realProductsResult = Result {
  try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
}

/// The 194 real records; stage 02's mapping is finished code here, so this throws only if it was edited.
func realProducts() throws -> [Product] { try realProductsResult.get() }

/// Opens a data source, or stops the test with one issue naming the unfinished
/// migration: Task 1, or Task 2 when only version 2 is missing.
func openDatabase(
  _ path: String = ":memory:", sourceLocation: SourceLocation = #_sourceLocation
) async throws -> SQLiteProductLocalDataSource {
  try await guide.attempt(
    1, "SQLiteProductLocalDataSource(path: \"\(path)\") must open and migrate before anything else",
    sourceLocation: sourceLocation
  ) { try SQLiteProductLocalDataSource(path: path) }
}

/// Whether `error` is SQLite's constraint failure (a CHECK, NOT NULL or UNIQUE that said no).
func isConstraintFailure(_ error: (any Error)?) -> Bool {
  (error as? SQLiteError)?.code == .constraint
}

extension StageGuide {
  /// Runs `body` and returns its value. When it throws, the test stops with one
  /// issue that says what was being done and shows the error. The issue names
  /// `task`, or the earlier task whose stub threw "not done yet".
  func attempt<Value>(
    _ task: Int, _ what: String, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation, _ body: () async throws -> Value
  ) async throws -> Value {
    let thrown: any Error
    do {
      return try await body()
    } catch let error as ExpectationFailedError {
      throw error  // A nested check has already recorded its issue.
    } catch {
      thrown = error
    }
    // One issue that shows the error and stops the test: "(error → …) == nil".
    let error: (any Error)? = thrown
    try #require(
      error == nil, self.task(task, "\(what); it threw instead", blaming: thrown), sourceLocation: sourceLocation)
    throw thrown  // Not reached: the failed #require has stopped the test.
  }

  /// A comment for `task`, or, when `error` is a lesson stub's "not done yet" for
  /// another task, for that task: the test fails because it is unfinished.
  func task(_ number: Int, _ message: String, blaming error: (any Error)?) -> Comment {
    guard let error, let unfinished = unfinishedTask(in: error), unfinished != number, tasks[unfinished] != nil else {
      return task(number, message)
    }
    return task(unfinished, "Task \(unfinished) is not done yet, and this check needs it. \(message)")
  }
}

extension StageGuide {
  /// One expectation for a whole table of cases, so one mistake prints one message.
  ///
  /// `check` returns `nil` for a case that keeps `rule`, or what happened instead
  /// and the error behind it, if any. The message lists every case that broke the
  /// rule; when one of them threw a stub's "not done yet", it names that task.
  func expectEvery<Case: Sendable>(
    _ cases: [Case], task number: Int, _ rule: String, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    check: (Case) async -> (happened: String, error: (any Error)?)?
  ) async {
    var broken: [(happened: String, error: (any Error)?)] = []
    for item in cases {
      if let problem = await check(item) { broken.append(problem) }
    }
    let list = broken.map(\.happened).joined(separator: "; ")
    #expect(
      broken.count == 0,
      task(number, "\(rule); \(broken.count) of \(cases.count) did not: \(list)", blaming: broken.first?.error),
      sourceLocation: sourceLocation)
  }
}

extension Result {
  /// The outcome as a message shows it: the value, or "the error …".
  var described: String {
    switch self {
    case .success(let value): "\(value)"
    case .failure(let error): "the error \(error)"
    }
  }
}

/// The task number a lesson stub's `NotDoneYet` names ("Task 1" gives 1), or
/// `nil` for any other error. The solution's modules don't know `NotDoneYet`,
/// so it is recognised by its type name and its `task` property.
func unfinishedTask(in error: any Error) -> Int? {
  guard String(describing: type(of: error)) == "NotDoneYet",
    let task = Mirror(reflecting: error).children.first(where: { $0.label == "task" })?.value as? String
  else { return nil }
  return Int(task.replacingOccurrences(of: "Task ", with: ""))
}

/// The stored properties in which two values differ, as `name: expected …, got …`,
/// or `""` when none do. Dates show their seconds since 2001, to the last bit.
func differences<Value>(expected: Value, actual: Value) -> String {
  func text(_ value: Any) -> String {
    if let date = value as? Date { return "\(date.timeIntervalSinceReferenceDate) s after 2001" }
    return String(describing: value)
  }
  let pairs = zip(Mirror(reflecting: expected).children, Mirror(reflecting: actual).children)
  return pairs.compactMap { expected, actual in
    let (wanted, got) = (text(expected.value), text(actual.value))
    return wanted == got ? nil : "\(expected.label ?? "?"): expected \(wanted), got \(got)"
  }.joined(separator: "; ")
}

/// The order `products()` promises: newest `updatedAt` first, then by id.
func newestFirst(_ products: [Product]) -> [Product] {
  products.sorted { $0.updatedAt != $1.updatedAt ? $0.updatedAt > $1.updatedAt : $0.id < $1.id }
}

/// A database file in the temporary folder, removed with its WAL files and any
/// `.unreadable` copy `openOrReset(path:)` made, when the value goes away.
struct TemporaryDatabase: ~Copyable {
  let path = FileManager.default.temporaryDirectory
    .appendingPathComponent("stage04-\(UUID().uuidString).sqlite").path

  deinit {
    SQLiteConnection.removeDatabase(atPath: path)
    SQLiteConnection.removeDatabase(atPath: path + ".unreadable")
  }
}

extension Product {
  static func sample(
    id: Int, title: String = "Sample", stock: Int = 1, updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062)
  ) -> Product {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: stock, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}
