import Foundation

/// The task of a stage doc that a test's message names, with what the message says about it.
///
/// Two shapes are read, wherever they appear in a message (swift-testing may
/// wrap them: `Caught error: …`, `Test x() skipped: "…"`):
/// - a `StageGuide` comment: `Task 3 "Map rows" (Docs/04-LocalPersistence.md): expected …`
/// - a lesson stub's `NotDoneYet`: `Not done yet: Task 3 in Docs/04-LocalPersistence.md: write …`
struct TaskReference: Equatable {
  /// The task's number in its doc.
  var task: Int
  /// The title the message gives, if it gives one.
  var title: String?
  /// The doc the message names, such as `Docs/04-LocalPersistence.md`.
  var doc: String
  /// What the message says after the reference: what was expected and what happened.
  var detail: String

  /// The first task reference in `text`, or `nil` when it names no task.
  static func find(in text: String) -> TaskReference? {
    let guide = fromGuide(text)
    let stub = fromStub(text)
    if let guide, let stub { return guide.start <= stub.start ? guide.reference : stub.reference }
    return (guide ?? stub)?.reference
  }

  /// The task reference of a note: a `StageGuide` comment in any of its messages
  /// first, and a stub's words only when no message has one.
  ///
  /// A failed `#expect` puts the expression with its values first and the
  /// comment after it; when a value is a stub's text (`said → "Not done yet:
  /// Task 8 in …"`), the comment still says best what was expected.
  static func find(in note: TestNote) -> TaskReference? {
    note.messages.lazy.compactMap { fromGuide($0)?.reference }.first
      ?? note.messages.lazy.compactMap { fromStub($0)?.reference }.first
  }

  private static func fromGuide(_ text: String) -> (start: String.Index, reference: TaskReference)? {
    guard let match = text.firstMatch(of: #/Task (\d+) "(.*?)" \((Docs/[^)\s]+\.md)\): /#), let task = Int(match.1)
    else { return nil }
    let reference = TaskReference(
      task: task, title: String(match.2), doc: String(match.3), detail: detail(text[match.range.upperBound...]))
    return (match.range.lowerBound, reference)
  }

  private static func fromStub(_ text: String) -> (start: String.Index, reference: TaskReference)? {
    guard let match = text.firstMatch(of: #/Not done yet: Task (\d+) in (Docs/\S+\.md): /#), let task = Int(match.1)
    else { return nil }
    let reference = TaskReference(
      task: task, title: nil, doc: String(match.2), detail: "not done yet: " + detail(text[match.range.upperBound...]))
    return (match.range.lowerBound, reference)
  }

  /// The rest of a message, without the closing quote a skip's wording adds.
  private static func detail(_ rest: Substring) -> String {
    var text = rest.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasSuffix("\""), text.filter({ $0 == "\"" }).count % 2 == 1 { text.removeLast() }
    return text
  }
}
