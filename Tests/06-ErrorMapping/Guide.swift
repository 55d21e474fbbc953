import CourseFixtures
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

let guide = StageGuide(
  doc: "Docs/06-ErrorMapping.md",
  tasks: [
    1: "Say whether retrying can help",
    2: "Map transport failures",
    3: "Map HTTP answers",
    4: "Map decoding and storage failures",
    5: "Tell the user",
    6: "Decide when to retry",
    7: "Retry around the remote source",
    8: "Configure the app's session",
  ]
)

extension StageGuide {
  /// Names `task`, unless `outcome` shows another task's "not done yet" (thrown,
  /// or inside a value a stub returned): then the message names that task, the
  /// one the learner must finish first.
  func task(_ number: Int, _ message: String, blaming outcome: Any) -> Comment {
    let text = String(describing: outcome)
    let marker = "Not done yet: Task "
    guard let range = text.range(of: marker),
      let other = Int(text[range.upperBound...].prefix { $0.isNumber }),
      other != number, tasks[other] != nil
    else { return task(number, message) }
    return task(other, "finish this task first; Task \(number)'s test got \(text) (\(message))")
  }

  /// Records an issue naming Task 1 and returns `false` while `isRetryable`
  /// disagrees with Task 1's table: tests of later tasks rely on it.
  func requireTask1(for number: Int) -> Bool {
    let wrong = CatalogErrorTests.retryable.filter { error, expected in error.isRetryable != expected }
    if let (error, expected) = wrong.first {
      let more = wrong.count > 1 ? " (and \(wrong.count - 1) more wrong)" : ""
      Issue.record(
        task(
          1,
          "finish this task first; Task \(number)'s test relies on isRetryable, which says \(!expected) for \(error)\(more)"
        ))
    }
    return wrong.isEmpty
  }
}

/// The 194 real records as domain products, through stage 02's finished mapping.
let realProducts: [Product] = {
  do {
    return try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).map { try $0.toDomain() }
  } catch {
    preconditionFailure("the fixture records must map; stage 02's mapping is finished code here: \(error)")
  }
}()

/// The first page as the Catalog API serves it.
let firstPage = Array(realProducts.prefix(30))

/// 2026-01-01 00:00:00 UTC: the wall-clock time of every test.
let testDate = Date(timeIntervalSince1970: 1_767_225_600)

/// A fixed wall clock to inject as `now`.
let testNow: @Sendable () -> Date = { testDate }

/// The mapper's boundary, the one function of it the tests call directly: what a
/// data source threw, as the app's error, with the test's `now`. The mapper is the
/// composition root's, whatever its type is named.
enum Mapper {
  static func boundary(_ error: any Error, now: Date = testDate) throws -> CatalogError {
    try AppDependencies.errorMapper().catalogError(from: error, now: now)
  }
}

/// The policy's requirements as throwing function values, so a test calls them
/// with `try` whether or not the learner's version still throws.
enum Policy {
  static func shouldRetry(_ policy: RetryPolicy, _ error: CatalogError, attempt: Int, request: RetryRequest) throws
    -> Bool
  {
    let decide: (RetryPolicy) -> (CatalogError, Int, RetryRequest) throws -> Bool =
      RetryPolicy.shouldRetry(_:attempt:request:)
    return try decide(policy)(error, attempt, request)
  }

  static func delay(_ policy: RetryPolicy, after error: CatalogError, attempt: Int, random: Double) throws -> Duration {
    let wait: (RetryPolicy) -> (CatalogError, Int, Double) throws -> Duration = RetryPolicy.delay(after:attempt:random:)
    return try wait(policy)(error, attempt, random)
  }

  /// Records an issue naming Task 6 and returns `false` when the policy can't yet
  /// decide a plain retry: tests of Task 7 need it.
  static func requireTask6(for number: Int) -> Bool {
    let decided = Result { try shouldRetry(.standard, .server(status: 503), attempt: 1, request: .get) }
    let waited = Result { try delay(.standard, after: .offline, attempt: 1, random: 0) }
    guard (try? decided.get()) == true, (try? waited.get()) == .zero else {
      Issue.record(
        guide.task(
          6,
          "finish this task first; Task \(number)'s test needs shouldRetry true for a GET's first 503 and a zero delay for random 0, got shouldRetry \(said(decided)), delay \(said(waited))"
        ))
      return false
    }
    return true
  }
}

/// A result as a message says it: the value, or "threw …" first, so a thrown error never reads like an answer.
func said<Value>(_ outcome: Result<Value, any Error>) -> String {
  switch outcome {
  case .success(let value): shown(value)
  case .failure(let error): "threw \(shown(error))"
  }
}

/// An outcome in one short line: "30 products", or "error offline".
func brief<Value>(_ outcome: Result<Value, any Error>) -> String {
  switch outcome {
  case .success(let page as ProductPage): "\(page.products.count) products"
  case .success(let answer as RepositoryAnswer<[Product]>): "\(answer.value.count) products from \(answer.origin)"
  case .success(let value): "\(value)"
  case .failure(let error): "error \(error)"
  }
}

/// A screen state in one short line: "loaded(30 products)", not every product.
func brief(_ state: ProductListViewModel.State) -> String {
  if case .loaded(let products) = state { "loaded(\(products.count) products)" } else { "\(state)" }
}

/// `a == b`, behind a call so a failed expectation prints the message, not every product of both sides.
func same<Value: Equatable>(_ a: Value, _ b: Value) -> Bool { a == b }
