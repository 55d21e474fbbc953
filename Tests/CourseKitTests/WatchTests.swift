import CourseKit
import Foundation
import Synchronization
import Testing

/// `course watch`: `check` again after each change to the lesson, until it passes or Ctrl-C.
struct WatchTests {
  @Test func rerunsAfterAnEditAndCongratulatesWhenTheStagePasses() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write("Lessons/01-Intro/A.swift", "let a = 0\n")
    let runs = Mutex(0)
    let runner = StubCommandRunner { arguments in
      guard StubCommandRunner.filter(arguments) == "Lesson01Tests\\." else { return CannedRun.answer()(arguments) }
      let run = runs.withLock { count in
        count += 1
        return count
      }
      return run == 1 ? CheckTests.shuffled : CannedRun.allPass
    }
    let pauses = Mutex(0)
    let root = folder.workspace.root
    let (status, output) = folder.run(.watch(stage: "01"), with: runner) { seconds in
      #expect(seconds == 0.5)
      // Nothing changes at the first look; a file grows before the third.
      let count = pauses.withLock { count in
        count += 1
        return count
      }
      if count == 2 { write("let a = 1\n\n", to: root.appendingPathComponent("Lessons/01-Intro/A.swift")) }
    }
    #expect(status == 0, "\(output)")
    #expect(runs.withLock { $0 } == 2, "one run at the start, one after the edit")
    #expect(pauses.withLock { $0 } == 2)
    #expect(output.contains("course watch: run 1\n"), "\(output)")
    #expect(output.contains("Task 1: Pass a"), "the first run shows the check view")
    #expect(output.contains("`swift run course hint 01 1` gives one hint at a time."), "\(output)")
    #expect(!output.contains("course watch 01` reruns"), "watch does not advise running watch: \(output)")
    #expect(output.contains("course watch: run 2, after a change to Lessons/01-Intro/A.swift"), "\(output)")
    #expect(output.contains("Well done: stage 01, Intro, passes every test."), "\(output)")
    #expect(output.contains("Next: stage 02, Next: read Docs/02-Next.md"), "\(output)")
  }

  @Test func ctrlCBetweenRunsStopsWatchingCleanly() throws {
    let folder = try TemporaryWorkspace()
    let interruption = Interruption()
    let (status, output) = folder.run(
      .watch(stage: "01"), with: StubCommandRunner(answers: CannedRun.answer()), interruption: interruption
    ) { _ in interruption.request() }
    #expect(status == 0)
    #expect(output.contains("Stopped watching Lessons/01-Intro."), "\(output)")
  }

  @Test func ctrlCDuringARunStopsWatchingCleanly() throws {
    let folder = try TemporaryWorkspace()
    let suites = Mutex(0)
    let runner = InterruptibleRunner { arguments in
      guard StubCommandRunner.filter(arguments) != nil else { return false }
      return suites.withLock { count in
        count += 1
        return count == 2
      }
    }
    let root = folder.workspace.root
    let (status, output) = folder.run(.watch(stage: "01"), with: runner) { _ in
      write("let a = 2\n", to: root.appendingPathComponent("Lessons/01-Intro/A.swift"))
    }
    #expect(status == 0)
    #expect(suites.withLock { $0 } == 2, "the second run was the one interrupted")
    #expect(output.contains("Stopped watching Lessons/01-Intro."), "\(output)")
  }

  @Test func aBuildErrorIsShownAndWatchingGoesOn() throws {
    let folder = try TemporaryWorkspace()
    let builds = Mutex(0)
    let interruption = Interruption()
    let runner = StubCommandRunner { arguments in
      guard arguments.starts(with: ["swift", "build"]) else { return CannedRun.answer()(arguments) }
      let build = builds.withLock { count in
        count += 1
        return count
      }
      return build == 2 ? CannedRun(status: 1, console: "A.swift:1:1: error: expected expression") : CannedRun()
    }
    let pauses = Mutex(0)
    let root = folder.workspace.root
    let (status, output) = folder.run(.watch(stage: "01"), with: runner, interruption: interruption) { _ in
      let count = pauses.withLock { count in
        count += 1
        return count
      }
      if count == 1 { write("let", to: root.appendingPathComponent("Lessons/01-Intro/A.swift")) }
      if count == 2 { interruption.request() }
    }
    #expect(status == 0)
    #expect(output.contains("error: expected expression"), "\(output)")
    #expect(output.contains("save a file to try again"), "\(output)")
    #expect(output.contains("Stopped watching"))
  }
}

extension WatchTests {
  @Test(arguments: ["01", nil])
  func aBuildErrorAtTheStartIsShownAndWatchingGoesOn(stage: String?) throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Lessons/01-Intro/A.swift", "let\n")
    let builds = Mutex(0)
    let runner = StubCommandRunner { arguments in
      guard arguments.starts(with: ["swift", "build"]) else { return CannedRun.answer(lesson: .allPass)(arguments) }
      let build = builds.withLock { count in
        count += 1
        return count
      }
      return build == 1 ? CannedRun(status: 1, console: "A.swift:1:4: error: expected pattern") : CannedRun()
    }
    let pauses = Mutex(0)
    let root = folder.workspace.root
    let (status, output) = folder.run(.watch(stage: stage), with: runner) { _ in
      let count = pauses.withLock { count in
        count += 1
        return count
      }
      if count == 2 { write("let a = 1\n", to: root.appendingPathComponent("Lessons/01-Intro/A.swift")) }
      if count > 5 { Issue.record("still watching after the fix") }
    }
    #expect(status == 0, "\(output)")
    #expect(builds.withLock { $0 } == 2, "a build at the start, one after the fix")
    #expect(output.contains("error: expected pattern"), "\(output)")
    #expect(output.contains("save a file to try again"), "\(output)")
    // Once it builds: the named stage's congratulations, or, unnamed, that every stage passes.
    let passed = stage == nil ? "Every stage is solved." : "Well done: stage 01, Intro, passes every test."
    #expect(output.contains(passed), "\(output)")
  }
}

/// Writes a file from inside a `pause` closure, which cannot throw; a failure is the test's issue.
private func write(_ text: String, to url: URL) {
  do {
    try writeFixture(text, to: url)
  } catch {
    Issue.record(error, "could not edit \(url.path) while watching")
  }
}

/// Answers as `CannedRun.answer()` does, but throws `interrupted`, as Ctrl-C makes a real runner do,
/// for the commands `interrupts` picks.
private struct InterruptibleRunner: CommandRunning {
  let interrupts: @Sendable ([String]) -> Bool

  func run(
    _ arguments: [String], in directory: URL, timeout: Double, onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    if interrupts(arguments) { throw CourseError.interrupted }
    return try StubCommandRunner(answers: CannedRun.answer()).run(
      arguments, in: directory, timeout: timeout, onLine: onLine)
  }

  func start(_ arguments: [String], in directory: URL, log: URL) throws {
    if interrupts(arguments) { throw CourseError.interrupted }
  }
}
