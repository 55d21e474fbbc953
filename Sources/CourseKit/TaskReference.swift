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
    let guide = #/Task (\d+) "(.*?)" \((Docs/[^)\s]+\.md)\): /#
    let stub = #/Not done yet: Task (\d+) in (Docs/\S+\.md): /#
    let fromGuide = text.firstMatch(of: guide)
    let fromStub = text.firstMatch(of: stub)
    if let match = fromGuide,
      fromStub.map({ match.range.lowerBound <= $0.range.lowerBound }) ?? true,
      let task = Int(match.1)
    {
      return TaskReference(
        task: task, title: String(match.2), doc: String(match.3), detail: detail(text[match.range.upperBound...]))
    }
    if let match = fromStub, let task = Int(match.1) {
      return TaskReference(
        task: task, title: nil, doc: String(match.2), detail: "not done yet: " + detail(text[match.range.upperBound...])
      )
    }
    return nil
  }

  /// The first task reference among a note's messages.
  static func find(in note: TestNote) -> TaskReference? {
    note.messages.lazy.compactMap { find(in: $0) }.first
  }

  /// The rest of a message, without the closing quote a skip's wording adds.
  private static func detail(_ rest: Substring) -> String {
    var text = rest.trimmingCharacters(in: .whitespacesAndNewlines)
    if text.hasSuffix("\""), text.filter({ $0 == "\"" }).count % 2 == 1 { text.removeLast() }
    return text
  }
}
