import Foundation
import LessonSupport
import Testing

extension StageGuide {
  /// Runs `body` and returns its value. When it throws, the test stops with one
  /// issue that says what was being done and shows the error. The issue names
  /// `task`, or the earlier task whose stub threw "not done yet".
  ///
  /// ```swift
  /// let page = try await guide.attempt(4, "products(limit: 5, skip: 10) should return a page") {
  ///   try await source.products(limit: 5, skip: 10)
  /// }
  /// ```
  public func attempt<Value>(
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

  /// A comment for `task`, or, when `error` is a lesson stub's "not done yet",
  /// for the stub's task, saying first that it is unfinished: the test fails
  /// because of that, whichever task it checks.
  public func task(_ number: Int, _ message: String, blaming error: (any Error)?) -> Comment {
    guard let error, let unfinished = unfinishedTask(in: error), tasks[unfinished] != nil else {
      return task(number, message)
    }
    return task(unfinished, "\(Self.unfinishedPrefix(unfinished))\(message)")
  }

  /// What a message names first when the check needs an unfinished task:
  /// "Task 1 is not done yet, and this check needs it. ".
  public static func unfinishedPrefix(_ number: Int) -> String {
    "Task \(number) is not done yet, and this check needs it. "
  }

  /// One expectation for a whole table of cases, so one mistake prints one message.
  ///
  /// `check` returns `nil` for a case that keeps `rule`, or what happened instead
  /// and the error behind it, if any. The message lists every case that broke the
  /// rule; when one of them threw a stub's "not done yet", it names that task.
  /// When every case threw the same "not done yet", the message says it once.
  public func expectEvery<Case: Sendable>(
    _ cases: [Case], task number: Int, _ rule: String, isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    check: (Case) async -> (happened: String, error: (any Error)?)?
  ) async {
    var broken: [(happened: String, error: (any Error)?)] = []
    for item in cases {
      if let problem = await check(item) { broken.append(problem) }
    }
    let stubs = Set(broken.compactMap { ($0.error as? NotDoneYet)?.description })
    let list: String
    if broken.count == cases.count, cases.count > 1, let stub = stubs.first, stubs.count == 1,
      broken.allSatisfy({ $0.error is NotDoneYet })
    {
      list = "all \(cases.count) threw \(stub)"
    } else {
      list = "\(broken.count) of \(cases.count) did not: " + broken.map(\.happened).joined(separator: "; ")
    }
    #expect(
      broken.count == 0, task(number, "\(rule); \(list)", blaming: broken.first?.error),
      sourceLocation: sourceLocation)
  }
}

/// The task number a lesson stub's `NotDoneYet` names ("Task 1" gives 1), or
/// `nil` for any other error.
public func unfinishedTask(in error: any Error) -> Int? {
  guard let stub = error as? NotDoneYet else { return nil }
  return Int(stub.task.replacingOccurrences(of: "Task ", with: ""))
}

extension Result {
  /// The outcome as a message shows it: the value, or "the error …", with `shown(_:)`.
  public var described: String {
    switch self {
    case .success(let value): shown(value)
    case .failure(let error): "the error \(shown(error))"
    }
  }
}

/// An error as a message shows it: `storage(.refused)`, without the stage module
/// and type names (`Lesson07.CatalogError.`) that `String(describing:)` puts in
/// front of a nested case; "no error" for `nil`.
public func short(_ error: (any Error)?) -> String {
  guard let error else { return "no error" }
  let text = String(describing: error).replacingOccurrences(
    of: #"\b(Lesson|Solution|Alternative)\d{2}\.([A-Z]\w*\.)+"#, with: ".", options: .regularExpression)
  return text.hasPrefix(".") ? String(text.dropFirst()) : text
}

/// `value` as a message shows it: `String(describing:)` without the `Optional(…)`
/// wrappers, so `.http(status: 404, message: Optional("Not found"))` reads
/// `.http(status: 404, message: "Not found")`, and without the `\'` a string's
/// debug form writes for `'`.
public func shown(_ value: Any) -> String {
  var text = String(describing: value)
  var searchStart = text.startIndex
  while let open = text.range(of: "Optional(", range: searchStart..<text.endIndex) {
    // Find the matching parenthesis, skipping those inside string literals.
    var depth = 1
    var inString = false
    var escaped = false
    var index = open.upperBound
    while index < text.endIndex, depth > 0 {
      let character = text[index]
      if escaped {
        escaped = false
      } else if inString {
        if character == "\\" { escaped = true } else if character == "\"" { inString = false }
      } else if character == "\"" {
        inString = true
      } else if character == "(" {
        depth += 1
      } else if character == ")" {
        depth -= 1
      }
      if depth > 0 { index = text.index(after: index) }
    }
    guard depth == 0 else { break }
    let inner = String(text[open.upperBound..<index])
    text.replaceSubrange(open.lowerBound...index, with: inner)
    searchStart = open.lowerBound
  }
  return text.replacingOccurrences(of: "\\'", with: "'")  // A string's debug form escapes ' as \'.
}

/// The stored properties in which two values differ, as `name: expected …, got …`,
/// or `""` when none do. Dates show their seconds since 2001, to the last bit;
/// a difference of 978,307,200 s (1970 to 2001) is pointed out.
public func differences<Value>(expected: Value, actual: Value) -> String {
  func text(_ value: Any) -> String {
    if let date = value as? Date { return "\(date.timeIntervalSinceReferenceDate) s after 2001" }
    return shown(value)
  }
  let pairs = zip(Mirror(reflecting: expected).children, Mirror(reflecting: actual).children)
  return pairs.compactMap { expected, actual in
    let (wanted, got) = (text(expected.value), text(actual.value))
    guard wanted != got else { return nil }
    var line = "\(expected.label ?? "?"): expected \(wanted), got \(got)"
    if let wantedDate = expected.value as? Date, let gotDate = actual.value as? Date {
      line += dateMixUp(expected: wantedDate, actual: gotDate)
    }
    return line
  }.joined(separator: "; ")
}

/// " (this looks like timeIntervalSince1970 …)" when `actual` is `expected`
/// shifted by the 978,307,200 s between 1970 and 2001, or `""`.
public func dateMixUp(expected: Date, actual: Date) -> String {
  let shift = actual.timeIntervalSince(expected)
  let gap = Date(timeIntervalSinceReferenceDate: 0).timeIntervalSince1970
  guard abs(abs(shift) - gap) < 1 else { return "" }
  return
    " (off by \(Int(gap)) s, the seconds from 1970 to 2001: this looks like timeIntervalSince1970 where timeIntervalSinceReferenceDate was meant, or the other way round)"
}
