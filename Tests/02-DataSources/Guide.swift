import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

let guide = StageGuide(
  doc: "Docs/02-DataSources.md",
  tasks: [
    1: "Decode the real dates",
    2: "Map the DTO to the domain",
    3: "Build requests from an Endpoint",
    4: "Fetch through the remote data source",
    5: "Keep products in the in-memory local source",
    6: "Point the view model at the protocol",
  ]
)

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

/// The error `body` throws, or `nil` when it returns: for tests that expect an error.
func thrownError<Value>(by body: () async throws -> Value) async -> (any Error)? {
  do {
    _ = try await body()
    return nil
  } catch {
    return error
  }
}

/// Whether `error` is `RemoteDataSourceError.invalidData`, with a message that names `field` if one is given.
func isInvalidData(_ error: (any Error)?, naming field: String? = nil) -> Bool {
  guard case .invalidData(let message)? = error as? RemoteDataSourceError else { return false }
  return field.map(message.contains) ?? true
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

extension Product {
  static func sample(id: Int, title: String = "Sample", updatedAt: Date = Date(timeIntervalSince1970: 1_746_006_062))
    -> Product
  {
    Product(
      id: id, title: title, description: "", category: "test", price: 1, discountPercentage: 0, rating: 0,
      stock: 1, brand: nil, thumbnail: nil, updatedAt: updatedAt)
  }
}

extension ProductDTO {
  /// A DTO that maps, with one field changed by the caller.
  static func valid(
    id: Int = 7, title: String = "Lamp", price: Decimal = 12, discountPercentage: Double = 10, rating: Double = 4.5,
    stock: Int = 3, updatedAt: String = "2025-04-30T09:41:02.053Z"
  ) -> ProductDTO {
    ProductDTO(
      id: id, title: title, description: "A lamp", category: "home", price: price,
      discountPercentage: discountPercentage, rating: rating, stock: stock, brand: nil, thumbnail: nil,
      meta: Meta(updatedAt: updatedAt))
  }
}
