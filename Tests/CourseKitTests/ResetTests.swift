import CourseKit
import Foundation
import Testing

/// `course reset`: the lesson back from git, refusing to lose work without --force, nothing else touched.
@Suite(.enabled(if: ProcessCommandRunner.canStartProcesses, "course starts processes on macOS and Linux only"))
struct ResetTests {
  /// A clone with two stages whose lesson 01 has work in it: a changed file, a new file, and a change elsewhere.
  static func cloneWithWork() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write(".gitignore", ".build/\n")
    try folder.write("Lessons/01-Intro/A.swift", "let a = 0\n")
    try folder.write("Lessons/02-Next/B.swift", "let b = 0\n")
    try folder.commitEverything()
    try folder.write("Lessons/01-Intro/A.swift", "let a = 1\nlet more = 2\n")
    try folder.write("Lessons/01-Intro/Mine.swift", "// mine\nlet mine = 3\nlet also = 4\n")
    try folder.write("Lessons/02-Next/B.swift", "let b = 2\n")
    try folder.write("Docs/01-Intro.md", TemporaryWorkspace.doc("01-Intro") + "my notes\n")
    return folder
  }

  @Test func refusesToThrowAwayWorkAndSaysHowMuch() throws {
    let folder = try Self.cloneWithWork()
    let (status, output) = folder.run(.reset(stage: "01", force: false), with: ProcessCommandRunner())
    #expect(status == 1)
    #expect(
      output.contains(
        "Not reset: that would throw away 5 line(s) you wrote (2 added or changed and 1 removed in 1 file(s); "
          + "3 in 1 new file(s)) in Lessons/01-Intro."), "\(output)")
    #expect(output.contains("`swift run course reset 01 --force`"))
    #expect(try folder.read("Lessons/01-Intro/A.swift") == "let a = 1\nlet more = 2\n", "nothing changed")
    #expect(try folder.read("Lessons/01-Intro/Mine.swift").contains("mine"))
  }

  @Test func withForceRestoresTheStageAndTouchesNothingElse() throws {
    let folder = try Self.cloneWithWork()
    let (status, output) = folder.run(.reset(stage: "01", force: true), with: ProcessCommandRunner())
    #expect(status == 0, "\(output)")
    #expect(output.contains("Lessons/01-Intro is back as the course shipped it."), "\(output)")
    #expect(try folder.read("Lessons/01-Intro/A.swift") == "let a = 0\n")
    #expect(
      !FileManager.default.fileExists(
        atPath: folder.workspace.root.appendingPathComponent("Lessons/01-Intro/Mine.swift").path),
      "a file the learner added to the lesson is removed")
    #expect(try folder.read("Lessons/02-Next/B.swift") == "let b = 2\n", "another stage's work stays")
    #expect(try folder.read("Docs/01-Intro.md").hasSuffix("my notes\n"), "files outside the lesson stay")
    let again = folder.run(.reset(stage: "01", force: false), with: ProcessCommandRunner())
    #expect(again.status == 0)
    #expect(again.output.contains("Lessons/01-Intro is already as the course shipped it"), "\(again.output)")
  }

  @Test func outsideAGitCloneItSaysWhy() throws {
    let folder = try TemporaryWorkspace()
    let (status, output) = folder.run(.reset(stage: "01", force: true), with: ProcessCommandRunner())
    #expect(status == 1)
    #expect(output.contains("reset needs the course as a git clone"), "\(output)")
  }
}
