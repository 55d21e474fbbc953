import Foundation

/// A stage's graded hints, `Docs/hints/NN-Name.md`: one `## Task N: Title`
/// section per task of the stage doc, each with `### Hint 1`, `### Hint 2`, …
/// from a nudge to nearly the answer.
///
/// The hints live outside the stage doc so reading the doc never shows an
/// answer; `course hint` hands them out one at a time.
struct HintsFile {
  /// One task's hints, in order.
  struct Entry: Equatable {
    var task: StageTask
    var hints: [String]
  }

  /// The tasks, in the order the file gives them.
  private(set) var entries: [Entry] = []

  /// Where a stage's hints live, relative to the package root.
  static func path(of stage: Stage) -> String { "Docs/hints/\(stage.folder).md" }

  /// Reads the file's Markdown; headings inside fenced code blocks are code, not headings.
  init(markdown: String) {
    var hint: [String]?
    var inFence = false
    func endHint() {
      if let lines = hint, !entries.isEmpty {
        entries[entries.count - 1].hints.append(
          lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines))
      }
      hint = nil
    }
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if StageDoc.isFence(line) { inFence.toggle() }
      if !inFence, line.hasPrefix("## ") {
        endHint()
        if let task = StageTask(heading: line.dropFirst(3).trimmingCharacters(in: .whitespaces)) {
          entries.append(Entry(task: task, hints: []))
        }
      } else if !inFence, line.hasPrefix("### ") {
        endHint()
        if line.dropFirst(4).hasPrefix("Hint") { hint = [] }
      } else {
        hint?.append(line)
      }
    }
    endHint()
  }

  /// A stage's hints file, or `nil` when it has none.
  init?(of stage: Stage, in workspace: Workspace) {
    guard let markdown = try? String(contentsOf: workspace.url(Self.path(of: stage)), encoding: .utf8) else {
      return nil
    }
    self.init(markdown: markdown)
  }

  /// The hints for task `number`; empty when the file has none.
  func hints(forTask number: Int) -> [String] {
    entries.first { $0.task.number == number }?.hints ?? []
  }
}
