import Foundation

/// The clause of the stage contract about hints: every task of the stage doc
/// (`### Task N: Title` under `## Tasks`) has at least `minimum` graded hints
/// under the same heading in `Docs/hints/NN-Name.md`, and the doc shows none itself.
enum HintsCheck {
  /// The fewest hints a task may have: a nudge and something closer to the answer.
  static let minimum = 2

  /// Checks one stage; one line when its hints are complete, one per problem otherwise.
  static func checks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else {
      return []  // The required-files check reports a missing doc.
    }
    let path = HintsFile.path(of: stage)
    let tasks = StageDoc(markdown: markdown).tasks
    func problem(_ text: String) -> StageVerdict.Check { StageVerdict.Check(ok: false, text: text) }
    var problems: [StageVerdict.Check] = []
    if tasks.isEmpty {
      problems.append(problem("\(stage.doc) has no `### Task N: Title` headings under `## Tasks`"))
    }
    if markdown.contains("<summary>Hint") {
      problems.append(
        problem(
          "\(stage.doc) still shows hints in <details> blocks; move them to \(path), where `course hint` reads them"))
    }
    guard let hints = HintsFile(of: stage, in: workspace) else {
      problems.append(problem("\(path) is missing: each task of \(stage.doc) needs its hints there"))
      return problems
    }
    for task in tasks {
      guard let entry = hints.entries.first(where: { $0.task.number == task.number }) else {
        problems.append(problem("\(path) has no `## \(task.heading)` section"))
        continue
      }
      if entry.task.title != task.title {
        problems.append(
          problem("\(path) titles Task \(task.number) \"\(entry.task.title)\", but \(stage.doc) says \"\(task.title)\"")
        )
      }
      if entry.hints.count < minimum {
        problems.append(
          problem(
            "\(path) has \(entry.hints.count) hint(s) for Task \(task.number); every task needs at least "
              + "\(minimum) (`### Hint 1`, `### Hint 2`, …)"))
      }
    }
    for entry in hints.entries where !tasks.contains(where: { $0.number == entry.task.number }) {
      problems.append(problem("\(path) has hints for Task \(entry.task.number), which \(stage.doc) does not have"))
    }
    if !problems.isEmpty { return problems }
    let counts = hints.entries.map(\.hints.count)
    let range = counts.min() == counts.max() ? "\(counts.min() ?? 0)" : "\(counts.min() ?? 0)–\(counts.max() ?? 0)"
    return [
      StageVerdict.Check(
        ok: true, text: "\(path): \(range) hints for each of the \(tasks.count) tasks, titled as in \(stage.doc)")
    ]
  }
}
