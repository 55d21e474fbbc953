import Foundation

/// What a failing issue says besides the comment `course check` shows: the
/// error a test caught, or what `#expect` found, when the comment cannot say it.
///
/// A `StageGuide` comment says what was expected and, where the test knows,
/// what happened; when the code under test throws, only swift-testing knows
/// what: `Caught error: .transport("x")` for an error a test records, and for
/// `#expect(throws:)` or a check that no error was thrown, its expansion
/// (`expected error … but … was thrown instead`, `(error → …) == nil`).
/// Other expansions restate the comment (`(said → …) == (text → …)`), and a
/// lesson stub's `Not done yet: Task N …` adds nothing where the line already
/// says Task N is unfinished, so neither is repeated.
enum IssueEvidence {
  /// The longest evidence shown, in characters, before it is cut with "…".
  static let limit = 300

  /// The lines of `note` worth showing under the line that reads `reference`,
  /// each one line long, in the order recorded, each once.
  static func lines(of note: TestNote, shown reference: TaskReference) -> [String] {
    var lines: [String] = []
    for message in note.messages {
      guard let (line, said) = evidence(in: message), !repeats(said, reference) else { continue }
      let cut = oneLine(line)
      if !lines.contains(cut) { lines.append(cut) }
    }
    return lines
  }

  /// The line to show for `message` and the part of it that carries news, or
  /// `nil` when the message is a comment or an expansion that says nothing the comment does not.
  private static func evidence(in message: String) -> (line: String, said: Substring)? {
    if message.hasPrefix(caught) { return (message, message.dropFirst(caught.count)) }
    guard message.hasPrefix(failed) else { return nil }
    let expansion = message.dropFirst(failed.count).drop { $0 == " " }
    guard saysWhatWasThrown(expansion) else { return nil }
    return (String(expansion), expansion)
  }

  private static let caught = "Caught error:"
  private static let failed = "Expectation failed:"

  /// Whether an expansion names a thrown error: `#expect(throws:)`'s own words,
  /// or a captured `error` or `failure` that is not `nil`.
  private static func saysWhatWasThrown(_ expansion: Substring) -> Bool {
    expansion.contains(" was thrown") || expansion.contains(#/[(.](?:error|failure) → (?!nil\))/#)
  }

  /// Whether `said` only repeats what the line shows: it is in the line's
  /// detail, or it is a stub's `Not done yet` for a task the line already names
  /// as unfinished. A stub under its own task's line that only says "it threw"
  /// is shown: its text is the to-do, and the learner learns what threw.
  private static func repeats(_ said: Substring, _ reference: TaskReference) -> Bool {
    let said = oneLine(String(said))
    if said.isEmpty || reference.detail.contains(said) { return true }
    let stubs = said.matches(of: #/Not done yet: Task (\d+) in /#).compactMap { Int($0.1) }
    return !stubs.isEmpty
      && stubs.allSatisfy { task in
        reference.detail.contains("Task \(task) is not done yet")
          || reference.detail.contains("Not done yet: Task \(task) in ")
          || (task == reference.task && reference.detail.localizedCaseInsensitiveContains("not done yet"))
      }
  }

  /// `text` on one line, spaces collapsed, cut to `limit` characters with "…".
  static func oneLine(_ text: String) -> String {
    let words = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    return words.count <= limit ? words : String(words.prefix(limit - 1)) + "…"
  }
}
