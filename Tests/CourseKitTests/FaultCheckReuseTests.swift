import Foundation
import Testing

@testable import CourseKit

/// `course check` runs the fault check again only when something it builds or runs changed.
struct FaultCheckReuseTests {
  static let build = ["swift", "build", "--build-tests"]

  @Test func anEditToTheLessonAloneReadsTheLastCheck() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Faults/01-Intro.md", FaultCheckTests.list)
    try folder.write("Solutions/01-Intro/Model.swift", FaultCheckTests.model)
    try folder.write("Lessons/01-Intro/YourTests/LoadTests.swift", "// Task 3\n")
    let answers = CannedRun.answer(lesson: .allPass)
    let first = folder.run(.check(stage: "01"), answers: answers)
    let runs = first.runner.recorded.filter { FaultCheckTests.fault($0) != nil }
    #expect(runs.count == 5, "the reference and 4 faults: \(first.runner.recorded)")

    try folder.write("Lessons/01-Intro/Model.swift", "struct Edited {}\n")
    let second = folder.run(.check(stage: "01"), answers: answers)
    #expect(first.runner.recorded.filter { $0 == Self.build }.count == 2, "the course, then the scratch package")
    #expect(
      second.runner.recorded.filter { FaultCheckTests.fault($0) != nil }.isEmpty
        && second.runner.recorded.filter { $0 == Self.build }.count == 1,
      "the check compiles the solution, not the lesson: it builds and runs nothing again: \(second.runner.recorded)")
    func report(_ output: String) -> [String] {
      output.split(separator: "\n").map(String.init).filter { $0.contains("Task") }
    }
    #expect(report(second.output) == report(first.output), "the same report, from the last check's streams")

    try folder.write("Lessons/01-Intro/YourTests/LoadTests.swift", "// Task 3, edited\n")
    let third = folder.run(.check(stage: "01"), answers: answers)
    #expect(
      third.runner.recorded.filter { FaultCheckTests.fault($0) != nil }.count == 5,
      "an edit to the learner's tests runs the check again: \(third.runner.recorded)")
    #expect(
      third.runner.recorded.filter { $0 == Self.build }.count == 1,
      "the scratch package's build alone: no lesson suite is built from YourTests: \(third.runner.recorded)")
    let status = folder.run(.status, answers: answers)
    #expect(status.runner.recorded.first == Self.build, "a build of everything compiles the learner's tests too")
  }
}
