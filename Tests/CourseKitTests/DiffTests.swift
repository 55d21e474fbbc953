import CourseKit
import Foundation
import Testing

/// `course diff`: the lesson against the solution, the learner's files first (real `git diff --no-index`).
@Suite(.enabled(if: ProcessCommandRunner.canStartProcesses, "course starts processes on macOS and Linux only"))
struct DiffTests {
  @Test func showsTheLearnersFilesFirstThenTheRest() throws {
    let folder = try TemporaryWorkspace()
    try folder.write(
      "Docs/01-Intro.md", "# Intro\n\n## Your files\n\n- `Z.swift`: Task 1\n\n## Tasks\n\n" + TemporaryWorkspace.tasks)
    try folder.write("Lessons/01-Intro/A.swift", "let a = 0\n")
    try folder.write("Solutions/01-Intro/A.swift", "let a = 1\n")
    try folder.write("Lessons/01-Intro/Z.swift", "let z = 0\n")
    try folder.write("Solutions/01-Intro/Z.swift", "let z = 26\n")
    try folder.write("Lessons/01-Intro/Same.swift", "let same = 1\n")
    try folder.write("Solutions/01-Intro/Same.swift", "let same = 1\n")
    try folder.write("Solutions/01-Intro/New.swift", "let new = 1\n")
    let (status, output) = folder.run(.diff(stage: "01"), with: ProcessCommandRunner())
    #expect(status == 0, "\(output)")
    let z = try #require(output.range(of: "+let z = 26"), "\(output)")
    let a = try #require(output.range(of: "+let a = 1"), "\(output)")
    #expect(z.lowerBound < a.lowerBound, "Z.swift is listed under ## Your files, so it comes first: \(output)")
    #expect(output.contains("-let z = 0"))
    #expect(output.contains("+++ b/Solutions/01-Intro/New.swift"), "a file only the solution has: \(output)")
    #expect(!output.contains("Same.swift"), "identical files are left out")
    #expect(output.contains("3 file(s) differ."))
  }

  @Test func startingCodeThatIsTheSolutionSaysSo() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Lessons/01-Intro/A.swift", "let a = 1\n")
    try folder.write("Solutions/01-Intro/A.swift", "let a = 1\n")
    let (status, output) = folder.run(.diff(stage: "01"), with: ProcessCommandRunner())
    #expect(status == 0)
    #expect(output.contains("Lessons/01-Intro is the same as Solutions/01-Intro."), "\(output)")
  }
}
