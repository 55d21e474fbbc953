import CourseKit
import Foundation
import Synchronization
import Testing

/// Answers `swift` and `git` with canned output and records what was asked.
final class StubCommandRunner: CommandRunning {
  let answers: @Sendable ([String]) -> CommandResult
  private let calls = Mutex<[[String]]>([])

  init(answers: @escaping @Sendable ([String]) -> CommandResult) { self.answers = answers }

  var recorded: [[String]] { calls.withLock { $0 } }

  func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    calls.withLock { $0.append(arguments) }
    let result = answers(arguments)
    for line in result.output.split(separator: "\n") { onLine(String(line)) }
    return result
  }
}

/// A throwaway folder laid out like the course, with one complete stage.
struct TemporaryWorkspace: ~Copyable {
  let workspace: Workspace

  init(withDoc: Bool = true, built: Bool = true) throws {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("course-\(UUID().uuidString)")
    let folders = [
      "Lessons/01-Intro", "Solutions/01-Intro", "Tests/01-Intro", "Tests/SolutionLinks/01-Intro", "Docs",
      ".build/debug/IntroPackageTests.xctest",
    ]
    for folder in folders {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    if !built {
      try FileManager.default.removeItem(at: root.appendingPathComponent(".build/debug/IntroPackageTests.xctest"))
    }
    try Data().write(to: root.appendingPathComponent("Package.swift"))
    if withDoc { try Data("# Intro".utf8).write(to: root.appendingPathComponent("Docs/01-Intro.md")) }
    workspace = Workspace(root: root)
  }

  deinit { try? FileManager.default.removeItem(at: workspace.root) }
}

struct CourseTests {
  static let lessonFails =
    "✘ Test a() failed after 0.1 seconds with 1 issue.\n✘ Test run with 3 tests in 1 suite failed after 0.1 seconds with 1 issue."
  static let allPass = "✔ Test run with 3 tests in 1 suite passed after 0.1 seconds."

  func run(
    _ command: Command, in folder: borrowing TemporaryWorkspace,
    answers: @escaping @Sendable ([String]) -> CommandResult
  )
    -> (status: Int32, output: String, runner: StubCommandRunner)
  {
    let runner = StubCommandRunner(answers: answers)
    let output = Mutex("")
    let course = Course(
      package: SwiftPackage(workspace: folder.workspace, runner: runner), style: Style(colored: false),
      isTerminal: false, write: { text in output.withLock { $0 += text } })
    let status = course.run(command)
    return (status, output.withLock { $0 }, runner)
  }

  static func answer(lesson: String, solution: String, gitStatus: String = "") -> @Sendable ([String]) -> CommandResult
  {
    { arguments in
      switch arguments.last {
      case "Lesson01Tests\\.": CommandResult(status: 1, output: lesson)
      case "Solution01Tests\\.": CommandResult(status: 0, output: solution)
      case "Lessons/01-Intro": CommandResult(status: 0, output: gitStatus)
      default: CommandResult(status: 0, output: "[1/2] Compiling\n[2/2] Linking\nBuild complete!")
      }
    }
  }

  @Test func verifyPassesAStageThatKeepsTheContract() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, runner) = run(
      .verify, in: folder, answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass))
    #expect(status == 0, "output: \(output)")
    #expect(output.contains("All 1 stage(s) keep the contract."))
    #expect(runner.recorded.first == ["swift", "build", "--build-tests"], "verify builds before it tests")
  }

  @Test func verifyFailsWhenTheLessonIsTheSolution() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = run(
      .verify, in: folder, answers: Self.answer(lesson: Self.allPass, solution: Self.allPass))
    #expect(status == 1)
    #expect(output.contains("Lesson01 passes all 3 tests; a lesson must leave work to do"))
    #expect(output.contains("1 stage(s) break the contract: 01-Intro"))
  }

  @Test func verifyFailsWhenTheDocIsMissing() throws {
    let folder = try TemporaryWorkspace(withDoc: false)
    let (status, output, _) = run(
      .verify, in: folder, answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass))
    #expect(status == 1)
    #expect(output.contains("is missing Docs/01-Intro.md"))
  }

  @Test func aBuildFailureShowsTheCompilerErrors() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = run(.status, in: folder) { _ in
      CommandResult(status: 1, output: "Lessons/01-Intro/A.swift:3:1: error: cannot find 'x' in scope")
    }
    #expect(status == 1)
    #expect(output.contains("error: cannot find 'x' in scope"))
    #expect(output.contains("does not build yet"))
  }

  @Test func statusShowsProgressAndTheNextStep() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = run(
      .status, in: folder, answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass))
    #expect(status == 0)
    #expect(output.contains("01  Intro"))
    #expect(output.contains("○ not started   2/3 tests pass"))
    #expect(output.contains("0 of 1 solved"))
    #expect(output.contains("read Docs/01-Intro.md, then run\n    swift test --filter Lesson01"))
  }

  @Test func statusCountsEditedLessonsAsInProgressAndPassingOnesAsSolved() throws {
    let folder = try TemporaryWorkspace()
    let edited = run(
      .status, in: folder,
      answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass, gitStatus: " M Lessons/01-Intro/A.swift"))
    #expect(edited.output.contains("● in progress   2/3 tests pass"))
    let solved = run(.status, in: folder, answers: Self.answer(lesson: Self.allPass, solution: Self.allPass))
    #expect(solved.output.contains("✔ solved"))
    #expect(solved.output.contains("1 of 1 solved"))
    #expect(solved.output.contains("Every stage is solved."))
  }

  @Test func saysWhenTheFirstBuildWillTakeAWhile() throws {
    let fresh = try TemporaryWorkspace(built: false)
    let first = run(.status, in: fresh, answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass))
    #expect(first.output.contains("First build: compiling the whole course takes a few minutes."))
    let built = try TemporaryWorkspace()
    let later = run(.status, in: built, answers: Self.answer(lesson: Self.lessonFails, solution: Self.allPass))
    #expect(!later.output.contains("First build"))
    #expect(later.output.contains("Building… 2/2"), "progress off a terminal is printed as lines")
  }

  @Test func findsTheWorkspaceFromASubfolder() throws {
    let folder = try TemporaryWorkspace()
    let found = try Workspace.find(from: folder.workspace.root.appendingPathComponent("Lessons/01-Intro"))
    #expect(found.root.standardizedFileURL.path == folder.workspace.root.standardizedFileURL.path)
    #expect(found.stages() == [Stage(number: "01", name: "Intro")])
  }
}

struct ProcessCommandRunnerTests {
  @Test func capturesOutputAndStatus() throws {
    let lines = Mutex<[String]>([])
    let result = try ProcessCommandRunner().run(
      ["sh", "-c", "echo one; echo two >&2; exit 3"], in: FileManager.default.temporaryDirectory, timeout: 30
    ) { line in lines.withLock { $0.append(line) } }
    #expect(result.status == 3)
    #expect(lines.withLock { $0 }.sorted() == ["one", "two"])
    #expect(!result.timedOut)
  }

  @Test func stopsACommandThatRunsPastItsTimeLimit() throws {
    let result = try ProcessCommandRunner().run(
      ["sleep", "30"], in: FileManager.default.temporaryDirectory, timeout: 0.2, onLine: { _ in })
    #expect(result.timedOut)
  }
}
