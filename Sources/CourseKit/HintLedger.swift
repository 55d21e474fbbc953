import Foundation

/// How many hints the learner has seen, per stage and task, kept in `.build/course/hints.json`.
///
/// The file is JSON, `{"04": {"3": 2}}`: stage 04, Task 3, two hints seen. It
/// lives beside the build so a fresh clone starts with none, and deleting it
/// starts over.
struct HintLedger: Equatable {
  /// Hints seen, by stage number and then task number (as text, the file's keys).
  private(set) var seen: [String: [String: Int]] = [:]

  /// The file, relative to the package root.
  static let path = ".build/course/hints.json"

  /// Reads the ledger of a workspace; an empty one when there is no file yet or it does not decode.
  init(of workspace: Workspace) {
    guard let data = try? Data(contentsOf: workspace.url(Self.path)),
      let seen = try? JSONDecoder().decode([String: [String: Int]].self, from: data)
    else { return }
    self.seen = seen
  }

  /// How many hints of a task have been shown.
  func count(stage: Stage, task: Int) -> Int { seen[stage.number]?[String(task)] ?? 0 }

  /// How many hints have been shown for a stage, every task together.
  func total(stage: Stage) -> Int { seen[stage.number]?.values.reduce(0, +) ?? 0 }

  /// Records that `count` hints of a task have been shown.
  mutating func record(_ count: Int, stage: Stage, task: Int) {
    seen[stage.number, default: [:]][String(task)] = count
  }

  /// Writes the ledger.
  ///
  /// - Throws: When `.build/course` cannot be written.
  func save(in workspace: Workspace) throws {
    let url = workspace.url(Self.path)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(seen).write(to: url, options: .atomic)
  }
}
