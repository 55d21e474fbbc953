import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that Lesson NN starts where Solution NN-1 ended (contract item 3).
struct ContinuityCheckTests {
  /// Two stages: Lessons/02-Next repeats Solutions/01-Intro's `A.swift` and adds `B.swift`, listed in its doc.
  static func twoStages() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write("Solutions/01-Intro/A.swift", "struct A {}\n")
    try folder.write("Lessons/02-Next/A.swift", "struct A {}\n")
    try folder.write("Lessons/02-Next/Models/B.swift", "struct B {}\n")
    try folder.write(
      "Docs/02-Next.md",
      "# Next\n\n" + TemporaryWorkspace.decisions + "## Your files\n\n- `Models/B.swift`: Task 1, new\n\n## Tasks\n\n"
        + TemporaryWorkspace.tasks)
    try folder.write("Docs/02-Next-Designs.md", "# Designs\n")
    return folder
  }

  /// The course itself: every lesson starts from the solution before it, so a
  /// maintainer learns in seconds that `course propagate` left no copy behind.
  @Test func everyStageOfTheCourseStartsFromThePreviousSolution() {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let workspace = Workspace(root: root)
    let stages = workspace.stages()
    #expect(stages.count >= 5)
    for (index, stage) in stages.enumerated() {
      let checks = ContinuityCheck.checks(for: stage, after: index > 0 ? stages[index - 1] : nil, in: workspace)
      #expect(checks.allSatisfy { $0.ok }, "\(stage.folder): \(checks.filter { !$0.ok }.map(\.text))")
    }
  }

  @Test func repeatingThePreviousSolutionKeepsTheContract() throws {
    let folder = try Self.twoStages()
    let (status, output, _) = folder.run(.verify)
    #expect(status == 0, "\(output)")
    #expect(
      output.contains(
        "✔ Lessons/02-Next starts from Solutions/01-Intro: 1 file(s) the same, 1 learner file(s) listed in Docs/02-Next.md"
      ), "\(output)")
  }

  @Test func aChangedFileTheDocDoesNotListBreaksItAndSaysHowToFixIt() throws {
    let folder = try Self.twoStages()
    try folder.write("Lessons/02-Next/A.swift", "struct A { var changed = true }\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Lessons/02-Next/A.swift differs from Solutions/01-Intro/A.swift: copy Solutions/01-Intro/A.swift over "
          + "Lessons/02-Next/A.swift, or list it under ## Your files in Docs/02-Next.md"), "\(output)")
  }

  @Test func aNewFileTheDocDoesNotListBreaksIt() throws {
    let folder = try Self.twoStages()
    try folder.write("Lessons/02-Next/C.swift", "struct C {}\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(output.contains("✘ Lessons/02-Next/C.swift is not in Solutions/01-Intro; list it under ## Your files"))
  }

  @Test func aListedFileThatDoesNotExistBreaksIt() throws {
    let folder = try Self.twoStages()
    try folder.write(
      "Docs/02-Next.md", "# Next\n\n## Your files\n\n- `Models/B.swift`: Task 1\n- `Gone.swift`: Task 2\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Docs/02-Next.md lists `Gone.swift` under ## Your files, but neither Lessons/02-Next/Gone.swift nor "
          + "Solutions/01-Intro/Gone.swift exists"), "\(output)")
  }

  /// A file an earlier solution adds must reach the next lesson, or the stage must say it removes it.
  @Test func aFileOfThePreviousSolutionMissingFromTheNextStageBreaksIt() throws {
    let folder = try Self.twoStages()
    try folder.write("Solutions/01-Intro/Added.swift", "struct Added {}\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Solutions/01-Intro/Added.swift is missing from Lessons/02-Next: copy it there, or, if this stage "
          + "removes it, list it under ## Your files in Docs/02-Next.md"), "\(output)")
    try folder.write(
      "Docs/02-Next.md",
      "# Next\n\n" + TemporaryWorkspace.decisions
        + "## Your files\n\n- `Models/B.swift`: Task 1\n- `Added.swift`: removed\n\n## Tasks\n\n"
        + TemporaryWorkspace.tasks)
    let (listedStatus, listedOutput, _) = folder.run(.verify)
    #expect(listedStatus == 0, "a removed file listed under ## Your files keeps the contract: \(listedOutput)")
  }

  @Test func aDocWithoutTheSectionBreaksItAndSaysWhatToAdd() throws {
    let folder = try Self.twoStages()
    try folder.write("Docs/02-Next.md", "# Next\n\n## Tasks\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(output.contains("✘ Docs/02-Next.md has no `## Your files` section"), "\(output)")
    #expect(output.contains("such as \"- `ProductRow.swift`: Task 3, new\""))
  }

  @Test func theFirstStageHasNoPredecessorToCompareWith() throws {
    let folder = try Self.twoStages()
    let (_, output, _) = folder.run(.verify)
    #expect(!output.contains("Lessons/01-Intro starts from"))
    #expect(!output.contains("Docs/01-Intro.md has no `## Your files`"))
  }

  /// A capstone: Lessons/02-Next holds only the files its doc lists under `## What you start with`.
  static func capstone() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write("Solutions/01-Intro/A.swift", "struct A {}\n")
    try folder.write("Lessons/02-Next/Domain.swift", "struct Domain {}\n")
    try folder.write("Lessons/02-Next/Root.swift", "func root() {}\n")
    try folder.write(
      "Docs/02-Next.md",
      "# Next\n\n## What you start with\n\n- `Domain.swift`: the domain\n- `Root.swift`: the composition root\n\n"
        + TemporaryWorkspace.decisions + "## Your files\n\n- `Root.swift`: Tasks 1 and 2\n\n## Tasks\n\n"
        + TemporaryWorkspace.tasks)
    try folder.write("Docs/02-Next-Designs.md", "# Designs\n")
    return folder
  }

  @Test func aCapstoneStartsFromTheFilesItsDocListsNotFromThePreviousSolution() throws {
    let folder = try Self.capstone()
    let (status, output, _) = folder.run(.verify)
    #expect(status == 0, "\(output)")
    #expect(
      output.contains(
        "✔ Lessons/02-Next starts from an empty folder: only Domain.swift, Root.swift, as Docs/02-Next.md lists them"),
      "\(output)")
    #expect(!output.contains("Solutions/01-Intro/A.swift is missing"), "\(output)")
  }

  @Test func aCapstoneWithAFileItsDocDoesNotListBreaksIt() throws {
    let folder = try Self.capstone()
    try folder.write("Lessons/02-Next/Store.swift", "struct Store {}\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Lessons/02-Next/Store.swift is not listed under ## What you start with in Docs/02-Next.md: a capstone starts "
          + "from only the files listed there"), "\(output)")
  }

  @Test func aCapstoneMissingAListedFileBreaksIt() throws {
    let folder = try Self.capstone()
    try FileManager.default.removeItem(at: folder.workspace.root.appendingPathComponent("Lessons/02-Next/Root.swift"))
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Docs/02-Next.md lists `Root.swift` under ## What you start with, but Lessons/02-Next/Root.swift does not exist"
      ), "\(output)")
  }
}
