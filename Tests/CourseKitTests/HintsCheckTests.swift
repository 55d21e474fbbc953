import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that every task of every stage has its hints.
struct HintsCheckTests {
  /// The course's own package root, found from this file.
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// A workspace holding a copy of the course's stage 04 doc and hints.
  static func copyOfStage04() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: ["04-LocalPersistence"])
    for path in ["Docs/04-LocalPersistence.md", "Docs/hints/04-LocalPersistence.md"] {
      try folder.write(path, try String(contentsOf: packageRoot.appendingPathComponent(path), encoding: .utf8))
    }
    return folder
  }

  static let stage = Stage(number: "04", name: "LocalPersistence")

  @Test func everyStageOfTheCourseHasItsHints() throws {
    let workspace = Workspace(root: Self.packageRoot)
    let stages = workspace.stages()
    #expect(stages.count >= 5)
    for stage in stages {
      let checks = HintsCheck.checks(for: stage, in: workspace)
      #expect(checks.filter { !$0.ok }.isEmpty, "\(stage.folder): \(checks.map(\.text))")
    }
  }

  @Test func aCopyOfStage04KeepsTheContract() throws {
    let folder = try Self.copyOfStage04()
    let checks = HintsCheck.checks(for: Self.stage, in: folder.workspace)
    #expect(
      checks.map(\.text) == [
        "Docs/hints/04-LocalPersistence.md: 3 hints for each of the 7 tasks, titled as in Docs/04-LocalPersistence.md"
      ])
  }

  @Test func aBrokenCopyFailsAndSaysWhere() throws {
    let folder = try Self.copyOfStage04()
    var hints = try folder.read("Docs/hints/04-LocalPersistence.md")
    // Task 3 keeps one hint, Task 5 gets another title, and Task 9 appears from nowhere.
    let task3 = try #require(hints.range(of: "## Task 3: Give back what was saved"))
    let task4 = try #require(hints.range(of: "## Task 4:"))
    let hint2 = try #require(hints.range(of: "### Hint 2", range: task3.upperBound..<task4.lowerBound))
    hints.removeSubrange(hint2.lowerBound..<task4.lowerBound)
    hints = hints.replacingOccurrences(of: "## Task 5: Read newest first", with: "## Task 5: Read oldest first")
    hints += "\n## Task 9: Extra\n\n### Hint 1\n\nx\n\n### Hint 2\n\ny\n"
    try folder.write("Docs/hints/04-LocalPersistence.md", hints)
    try folder.write(
      "Docs/04-LocalPersistence.md",
      try folder.read("Docs/04-LocalPersistence.md") + "\n<details><summary>Hint 1</summary>x</details>\n")
    let texts = HintsCheck.checks(for: Self.stage, in: folder.workspace).filter { !$0.ok }.map(\.text)
    #expect(
      texts == [
        "Docs/04-LocalPersistence.md still shows hints in <details> blocks; move them to "
          + "Docs/hints/04-LocalPersistence.md, where `course hint` reads them",
        "Docs/hints/04-LocalPersistence.md has 1 hint(s) for Task 3; every task needs at least 2 "
          + "(`### Hint 1`, `### Hint 2`, …)",
        "Docs/hints/04-LocalPersistence.md titles Task 5 \"Read oldest first\", but Docs/04-LocalPersistence.md "
          + "says \"Read newest first\"",
        "Docs/hints/04-LocalPersistence.md has hints for Task 9, which Docs/04-LocalPersistence.md does not have",
      ])
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1, "verify fails on the broken copy: \(output)")
    #expect(output.contains("✘ Docs/hints/04-LocalPersistence.md has 1 hint(s) for Task 3"), "\(output)")
  }

  @Test func aMissingHintsFileOrTaskFails() throws {
    let folder = try Self.copyOfStage04()
    try folder.write(
      "Docs/hints/04-LocalPersistence.md",
      try folder.read("Docs/hints/04-LocalPersistence.md").replacingOccurrences(
        of: "## Task 2: Open the first release's file", with: "## Not a task"))
    #expect(
      HintsCheck.checks(for: Self.stage, in: folder.workspace).map(\.text)
        == ["Docs/hints/04-LocalPersistence.md has no `## Task 2: Open the first release's file` section"])
    try FileManager.default.removeItem(
      at: folder.workspace.root.appendingPathComponent("Docs/hints/04-LocalPersistence.md"))
    #expect(
      HintsCheck.checks(for: Self.stage, in: folder.workspace).map(\.text)
        == [
          "Docs/hints/04-LocalPersistence.md is missing: each task of Docs/04-LocalPersistence.md needs its hints there"
        ])
  }
}
