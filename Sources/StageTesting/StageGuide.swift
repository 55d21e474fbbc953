import Testing

/// The voice of a stage's tests: turns a task number and what happened into a
/// comment that points the learner at the task in the stage's doc.
///
/// ```swift
/// let guide = StageGuide(doc: "Docs/01-ViewCallsURLSession.md", tasks: [1: "Use the injected session"])
/// #expect(api.requests.count == 1, guide.task(1, "expected 1 request through the session, got 0"))
/// // Task 1 "Use the injected session" (Docs/01-ViewCallsURLSession.md): expected 1 request …
/// ```
public struct StageGuide: Sendable {
  /// The stage's doc, relative to the package root.
  public let doc: String
  /// Task titles by number, as the doc's headings give them.
  public let tasks: [Int: String]

  /// Makes the guide for one stage.
  public init(doc: String, tasks: [Int: String]) {
    self.doc = doc
    self.tasks = tasks
  }

  /// A comment naming the task, its title and its doc, followed by `message`.
  ///
  /// - Precondition: `number` is one of the stage's tasks.
  public func task(_ number: Int, _ message: String) -> Comment {
    guard let title = tasks[number] else {
      preconditionFailure("\(doc) has no Task \(number); known tasks: \(tasks.keys.sorted())")
    }
    return Comment(rawValue: "Task \(number) \"\(title)\" (\(doc)): \(message)")
  }
}
