import CourseKit
import Foundation
import Testing

struct CourseTests {
  @Test func verifyPassesAStageThatKeepsTheContract() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, runner) = folder.run(.verify)
    #expect(status == 0, "output: \(output)")
    #expect(output.contains("All 1 stage(s) keep the contract."))
    #expect(runner.recorded.first == folder.buildCommand(), "verify builds before it tests")
  }

  @Test func verifyFailsWhenTheStartingCodeIsTheSolution() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = folder.run(.verify, answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 1)
    #expect(output.contains("Lesson01 passes all 3 tests; a lesson must leave work to do"))
    #expect(output.contains("1 stage(s) break the contract: 01-Intro"))
  }

  @Test func verifyFailsWhenTheDocIsMissing() throws {
    let folder = try TemporaryWorkspace(withDoc: false)
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(output.contains("is missing Docs/01-Intro.md"))
  }

  @Test func aBuildFailureShowsTheCompilerErrors() throws {
    let folder = try TemporaryWorkspace()
    // Swift 6's diagnostics quote the source under the error line, with a marker that repeats it.
    let console = """
      Lessons/01-Intro/A.swift:3:1: error: cannot find 'x' in scope
      2 |
      3 | let y = x
        |         `- error: cannot find 'x' in scope
      """
    let (status, output, _) = folder.run(.status) { _ in CannedRun(status: 1, console: console) }
    #expect(status == 1)
    #expect(output.contains("A.swift:3:1: error: cannot find 'x' in scope"), "\(output)")
    #expect(!output.contains("`- error:"), "a marker without its source line says nothing: \(output)")
    #expect(output.contains("does not build yet"))
  }

  @Test func statusShowsProgressAndTheNextStep() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = folder.run(.status)
    #expect(status == 0)
    #expect(output.contains("01  Intro"))
    #expect(output.contains("○ not started   2/3 tests pass"))
    #expect(output.contains("0 of 1 solved"))
    #expect(output.contains("read Docs/01-Intro.md, then run\n    swift run course check 01"), "got: \(output)")
  }

  @Test func statusCountsEditedStagesAsInProgressAndPassingOnesAsSolved() throws {
    let folder = try TemporaryWorkspace()
    let edited = folder.run(.status, answers: CannedRun.answer(gitStatus: " M Lessons/01-Intro/A.swift"))
    #expect(edited.output.contains("● in progress   2/3 tests pass"))
    let solved = folder.run(.status, answers: CannedRun.answer(lesson: .allPass))
    #expect(solved.output.contains("✔ solved"))
    #expect(solved.output.contains("1 of 1 solved"))
    #expect(solved.output.contains("Every stage is solved."))
  }

  /// On a Mac with SF Pro, swift-testing prints SF Symbols (private-use characters) instead of ✔ and ✘.
  @Test(arguments: [
    "\u{10065B} Test a() failed after 0.1 seconds with 1 issue.\n"
      + "\u{10065B} Test run with 3 tests in 1 suite failed after 0.1 seconds with 1 issue.",
    "Test a() failed after 0.1 seconds with 1 issue.\nTest run with 3 tests in 1 suite failed.",
    "",
  ])
  func countsComeFromTheEventStreamWhateverTheConsoleShows(console: String) throws {
    let folder = try TemporaryWorkspace()
    let lesson = CannedRun(status: 1, console: console, events: CannedRun.lessonFails.events)
    let (_, output, _) = folder.run(.status, answers: CannedRun.answer(lesson: lesson))
    #expect(
      output.contains("○ not started   2/3 tests pass"),
      "one of three tests failed in the event stream, whatever the console printed; got: \(output)")
    #expect(!output.contains("✔ solved"), "an untouched stage is never solved")
  }

  @Test func aHungSuiteIsBrokenAndNamesTheTestThatWasRunning() throws {
    let folder = try TemporaryWorkspace()
    let hung = CannedRun(
      status: 9, console: "◇ Test b() started.",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["b()"], ended: false), timedOut: true)
    let (status, output, _) = folder.run(.status, answers: CannedRun.answer(lesson: hung))
    #expect(status == 0)
    #expect(
      output.contains("✘ broken        2/3 tests pass · hung: b() still running when stopped after 15 s"),
      "b() never ended, so it has not passed; got: \(output)")
    #expect(
      output.contains(
        "Next: find the await that never returns in your code that b() calls.\n  `swift run course check 01` runs the suite"
      ),
      "got: \(output)")
    #expect(!output.contains("--filter"), "a bare `swift test --filter` would hang: \(output)")
  }

  @Test func keepsTheConsoleOutputOfEverySuiteInTheBuildFolder() throws {
    let folder = try TemporaryWorkspace()
    _ = folder.run(.status)
    let log = try String(
      contentsOf: folder.workspace.root.appendingPathComponent(SwiftPackage.logPath(of: "Lesson01Tests")),
      encoding: .utf8)
    #expect(log == CannedRun.lessonFails.result.output)
  }

  @Test func anInterruptedCommandSaysSoAndExitsWith130() throws {
    let folder = try TemporaryWorkspace()
    let (status, output) = folder.run(.status, with: InterruptedRunner())
    #expect(status == 130)
    #expect(output.contains("Interrupted."))
  }

  @Test func saysWhenTheFirstBuildWillTakeAWhile() throws {
    let fresh = try TemporaryWorkspace(built: false)
    let first = fresh.run(.status, answers: CannedRun.answer(gitStatus: " M Lessons/01-Intro/A.swift"))
    #expect(first.output.contains("First build: compiling the whole course takes a few minutes."))
    let built = try TemporaryWorkspace()
    let later = built.run(.status)
    #expect(!later.output.contains("First build"))
    #expect(later.output.contains("Building… 2/2"), "progress off a terminal is printed as lines")
  }

  /// A fresh clone: the table at once, no state claimed, and the tests
  /// building in the background; no suite runs before they are built.
  @Test func aFreshCloneShowsTheStagesAtOnceAndBuildsInTheBackground() throws {
    let fresh = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"], built: false)
    let (status, output, runner) = fresh.run(.status)
    #expect(status == 0)
    #expect(
      output.contains("01  Intro") && output.contains("02  Next") && output.contains("· not run yet"), "\(output)")
    #expect(!output.contains("not started"), "no suite ran, so no row claims a state: \(output)")
    #expect(output.contains("Read Docs/01-Intro.md"), "\(output)")
    #expect(output.contains("building in the background"), "\(output)")
    let commands = runner.recorded
    #expect(commands.contains { $0.first == "start" && $0.contains("--build-tests") }, "\(commands)")
    #expect(!commands.contains { StubCommandRunner.filter($0) != nil }, "no suite runs: \(commands)")
    #expect(!commands.contains { $0.first == "swift" && $0.contains("build") }, "no build waited on: \(commands)")
    let later = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    let (_, _, built) = later.run(.status)
    #expect(!built.recorded.contains { $0.first == "start" }, "once the tests are built, status runs the suites")
  }

  @Test func findsTheWorkspaceFromASubfolder() throws {
    let folder = try TemporaryWorkspace()
    let found = try Workspace.find(from: folder.workspace.root.appendingPathComponent("Lessons/01-Intro"))
    #expect(found.root.standardizedFileURL.path == folder.workspace.root.standardizedFileURL.path)
    #expect(found.stages() == [Stage(number: "01", name: "Intro")])
  }
}

/// A runner whose every command was interrupted, as Ctrl-C leaves it.
private struct InterruptedRunner: CommandRunning {
  func run(
    _ arguments: [String], in directory: URL, timeout: Double, onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    throw CourseError.interrupted
  }

  func start(_ arguments: [String], in directory: URL, log: URL) throws {
    throw CourseError.interrupted
  }
}
