/// The error a lesson stub throws until the learner writes the real code.
///
/// Its description names the task in the stage's doc, so a failing test reads
/// as an instruction: "Not done yet: Task 3 in Docs/02-DataSources.md …".
public struct NotDoneYet: Error, Sendable, Equatable, CustomStringConvertible {
  /// The task to finish, as the stage doc names it, such as "Task 3".
  public let task: String
  /// The doc that describes the task, such as "Docs/02-DataSources.md".
  public let doc: String
  /// What to write, in one line.
  public let hint: String

  /// Makes the error for one unfinished task.
  public init(_ task: String, in doc: String, _ hint: String) {
    self.task = task
    self.doc = doc
    self.hint = hint
  }

  public var description: String { "Not done yet: \(task) in \(doc): \(hint)" }
}

/// Throws `NotDoneYet` where a lesson stub needs a value it does not have yet.
///
/// ```swift
/// let page: ProductPage = try notDoneYet("Task 6", in: doc, "call remote.products(limit: 30, skip: 0)")
/// ```
public func notDoneYet<Value>(_ task: String, in doc: String, _ hint: String) throws -> Value {
  throw NotDoneYet(task, in: doc, hint)
}
