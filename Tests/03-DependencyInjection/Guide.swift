import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

let guide = StageGuide(
  doc: "Docs/03-DependencyInjection.md",
  tasks: [
    1: "Put a repository in front of the data source",
    2: "Write a spy",
    3: "Show every state",
    4: "Let a cancelled load change nothing",
    5: "Load once at a time",
    6: "Retry after a failure",
    7: "Wire the app in one place",
  ]
)

extension StageGuide {
  /// Runs `operation` and returns its value; when it throws, records the error
  /// itself as the test's issue, with a comment naming `task`, and returns `nil`.
  ///
  /// Swift Testing then shows exactly what was thrown, a `NotDoneYet` included,
  /// and the test can stop there instead of printing a second message for the
  /// same mistake.
  /// - Parameters:
  ///   - task: The task whose code `operation` runs.
  ///   - expectation: What `operation` should have returned, worked out only
  ///     after it threw, so it can say what else happened meanwhile.
  func value<Value>(
    of task: Int,
    _ expectation: @autoclosure () -> String,
    isolation: isolated (any Actor)? = #isolation,
    sourceLocation: SourceLocation = #_sourceLocation,
    _ operation: () async throws -> Value
  ) async -> Value? {
    do {
      return try await operation()
    } catch {
      Issue.record(error, self.task(task, "\(expectation()); it threw instead"), sourceLocation: sourceLocation)
      return nil
    }
  }
}

/// A state as a failure message shows it: products by id, not every field.
func describe(_ state: ProductListViewModel.State) -> String {
  switch state {
  case .idle: ".idle"
  case .loading: ".loading"
  case .loaded(let products): ".loaded(products \(products.map(\.id)))"
  case .empty: ".empty"
  case .failed(let message): ".failed(\"\(message)\")"
  }
}

/// An outcome as a failure message shows it: the products' ids, or the error.
func describe(_ outcome: Result<[Product], any Error>) -> String {
  switch outcome {
  case .success(let products): "products \(products.map(\.id))"
  case .failure(let error): "\(error)"
  }
}

/// "expected …, got …" for two states, saying so when they differ only in fields
/// other than the products' ids.
func expected(_ wanted: ProductListViewModel.State, got actual: ProductListViewModel.State) -> String {
  let (wantedText, actualText) = (describe(wanted), describe(actual))
  guard wantedText == actualText else { return "expected \(wantedText), got \(actualText)" }
  return "expected \(wantedText), got the same ids with other fields changed: \(actual)"
}

/// Cases grouped by what they came to, in order, as one line each:
/// `["offline and decoding(\"bad\") gave .empty", "http(…) gave .idle"]`.
/// One mistake that spoils every case then reads as one line, not three.
func grouped(_ cases: [(subject: String, result: String)], verb: String = "gave") -> [String] {
  var order: [String] = []
  var subjects: [String: [String]] = [:]
  for item in cases {
    if subjects[item.result] == nil { order.append(item.result) }
    subjects[item.result, default: []].append(item.subject)
  }
  return order.map { result in
    let names = subjects[result] ?? []
    let joined =
      names.count < 2 ? names.joined() : names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    return "\(joined) \(verb) \(result)"
  }
}
