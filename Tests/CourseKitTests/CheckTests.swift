import CourseKit
import Foundation
import Testing

/// `course check`: failures grouped by task, in task order, each once, with the doc section to read.
struct CheckTests {
  /// A lesson run as the parallel runner leaves it: Task 2's failure first, recorded three times
  /// (a parameterized test), Task 1's from a stub, one failure naming no task, one test skipped for Task 1.
  static let shuffled = CannedRun(
    status: 1,
    events: EventStreamFixture.run(
      tests: ["b()", "a()", "c()", "d()"], failing: ["b()", "a()", "c()"], skipped: ["d()"], parameterized: ["b()"],
      comments: [
        "b()": #"Task 2 "Pass b" (Docs/01-Intro.md): expected b() to return 2, got 0"#,
        "a()": "Caught error: Not done yet: Task 1 in Docs/01-Intro.md: return 1 from a()",
        "c()": "c() should return 3",
        "d()": #"Task 1 "Pass a" (Docs/01-Intro.md): skipped until a() returns 1"#,
      ]))

  @Test func groupsFailuresByTaskInTaskOrderEachOnce() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.shuffled))
    #expect(status == 1, "a stage with failures exits 1")
    let task1 = try #require(output.range(of: "Task 1: Pass a   Docs/01-Intro.md#task-1-pass-a"), "\(output)")
    let task2 = try #require(output.range(of: "Task 2: Pass b   Docs/01-Intro.md#task-2-pass-b"), "\(output)")
    #expect(task1.lowerBound < task2.lowerBound, "Task 1 comes before Task 2 whatever order the run took")
    #expect(output.contains("✘ a(): not done yet: return 1 from a()"), "\(output)")
    #expect(
      output.components(separatedBy: "expected b() to return 2, got 0").count == 2,
      "a failure recorded three times is shown once: \(output)")
    #expect(output.contains("… 1 test(s) skipped until this task is done: d()"), "\(output)")
    #expect(
      output.contains("Failures that name no task\n  ✘ c(): Expectation failed: x c() should return 3"), "\(output)")
    #expect(output.contains("0 passed, 3 failed, 1 skipped (4 tests)"), "\(output)")
    #expect(output.contains("Next: Task 1, \"Pass a\": read Docs/01-Intro.md#task-1-pass-a"), "\(output)")
    #expect(output.contains("`swift run course hint 01 1`"), "\(output)")
  }

  @Test func itsNextStepsNameCourseAsTheLearnerStartedIt() throws {
    let folder = try TemporaryWorkspace()
    let (_, output, _) = folder.run(
      .check(stage: "01"), answers: CannedRun.answer(lesson: Self.shuffled), invocation: "../../course")
    #expect(
      output.contains("Stuck? `../../course hint 01 1` gives one hint at a time; `../../course watch 01` reruns"),
      "started as ../../course, course must suggest its commands the same way; it printed:\n\(output)")
    #expect(!output.contains("swift run course"), "nothing may suggest `swift run course` here:\n\(output)")
  }

  @Test(arguments: [BuildSystem.Kind.native, .swiftbuild], [true, false])
  func underSwiftBuildSwiftRunHearsOfTheLauncher(_ kind: BuildSystem.Kind, hasLauncher: Bool) throws {
    let folder = try TemporaryWorkspace()
    if hasLauncher {
      try folder.write("course", "#!/bin/sh\n")
      chmod(folder.workspace.root.appendingPathComponent("course").path, 0o755)
    }
    let (_, output, _) = folder.run(
      .check(stage: "01"), answers: CannedRun.answer(lesson: Self.shuffled),
      buildSystem: BuildSystem(kind: kind, isToolchainDefault: true))
    let tip = "Quicker: `./course check 01` skips the 2 s `swift run` spends before course starts."
    #expect(
      output.contains(tip) == (kind == .swiftbuild && hasLauncher),
      "the tip about ./course belongs under Swift Build, with the launcher present, only (\(kind), launcher: \(hasLauncher)):\n\(output)"
    )
    let (_, launched, _) = folder.run(
      .check(stage: "01"), answers: CannedRun.answer(lesson: Self.shuffled),
      buildSystem: BuildSystem(kind: kind, isToolchainDefault: true), invocation: "./course")
    #expect(!launched.contains("Quicker:"), "started as ./course, there is nothing quicker to suggest:\n\(launched)")
    if kind == .swiftbuild, hasLauncher {
      let (_, chosen, _) = folder.run(
        .check(stage: "01"), answers: CannedRun.answer(lesson: Self.shuffled),
        buildSystem: BuildSystem(kind: .swiftbuild, isToolchainDefault: false))
      #expect(
        chosen.contains("Quicker: `./course check 01 --build-system swiftbuild`"),
        "where Swift Build is not the toolchain's default, the tip must keep the option:\n\(chosen)")
    }
  }

  @Test func testsThatFailAlikeShareALine() throws {
    let folder = try TemporaryWorkspace()
    let comment = #"Task 1 "Pass a" (Docs/01-Intro.md): the store must open first; it threw instead"#
    let lesson = CannedRun(
      status: 1,
      events: EventStreamFixture.run(
        tests: CannedRun.tests, failing: CannedRun.tests,
        comments: Dictionary(uniqueKeysWithValues: CannedRun.tests.map { ($0, comment) })))
    let (_, output, _) = folder.run(.check(stage: "1"), answers: CannedRun.answer(lesson: lesson))
    #expect(output.contains("✘ a(), b() and c(): the store must open first; it threw instead"), "\(output)")
  }

  @Test func withoutAStageItChecksTheFirstThatIsNotSolved() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    let (status, output, runner) = folder.run(.check(stage: nil)) { arguments in
      switch StubCommandRunner.filter(arguments) {
      case "Lesson01Tests\\.": CannedRun.allPass
      case "Lesson02Tests\\.": Self.shuffled
      default: CannedRun.answer()(arguments)
      }
    }
    #expect(status == 1)
    #expect(output.contains("Stage 02 · Next"), "\(output)")
    #expect(!output.contains("Stage 01 · Intro"), "a solved stage is not shown: \(output)")
    #expect(runner.recorded.compactMap(StubCommandRunner.filter) == ["Lesson01Tests\\.", "Lesson02Tests\\."])
  }

  @Test func aPassingStageExitsZeroAndNamesTheNextStage() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 0)
    #expect(output.contains("✔ Every test in Tests/01-Intro passes: all 3 of them."), "\(output)")
    #expect(output.contains("Stage 01 is solved. Next: stage 02, Next: read Docs/02-Next.md"), "\(output)")
  }

  @Test func anUnknownStageIsAUsageError() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, runner) = folder.run(.check(stage: "07"))
    #expect(status == 1)
    #expect(output.contains("No stage 07. The stages are 01."), "\(output)")
    #expect(runner.recorded.isEmpty, "nothing is built for a stage that does not exist")
  }

  @Test func skipsABuildWhenNothingChangedSinceTheLastOne() throws {
    let folder = try TemporaryWorkspace()
    let first = folder.run(.check(stage: "01"))
    #expect(first.runner.recorded.first == folder.buildCommand())
    let second = folder.run(.check(stage: "01"))
    #expect(!second.runner.recorded.contains(folder.buildCommand()), "nothing changed, so no build")
    try folder.write("Lessons/01-Intro/A.swift", "struct A {}\n")
    try FileManager.default.setAttributes(
      [.modificationDate: Date().addingTimeInterval(60)],
      ofItemAtPath: folder.workspace.root.appendingPathComponent("Lessons/01-Intro/A.swift").path)
    let third = folder.run(.check(stage: "01"))
    #expect(third.runner.recorded.first == folder.buildCommand(), "a lesson file changed")
  }

  @Test func statusNamesTheFirstFailingTaskAndTheHintsUsed() throws {
    let folder = try TemporaryWorkspace()
    _ = folder.run(.hint(stage: "01", task: 2))
    _ = folder.run(.hint(stage: "01", task: 2))
    let (_, output, _) = folder.run(.status, answers: CannedRun.answer(lesson: Self.shuffled))
    #expect(output.contains("0/4 tests pass   2 hints used"), "\(output)")
    #expect(output.contains("Next: stage 01, Task 1 \"Pass a\".\n  Read Docs/01-Intro.md#task-1-pass-a"), "\(output)")
    let (_, launched, _) = folder.run(
      .status, answers: CannedRun.answer(lesson: Self.shuffled), invocation: "./course")
    #expect(
      launched.contains("    ./course check 01     (or `./course watch 01` to rerun on every save)"),
      "started as ./course, the status's next step must name ./course for check and watch alike:\n\(launched)")
  }

  @Test func aCrashedSuiteSaysSoAndStillShowsWhatFailedBeforeIt() throws {
    let folder = try TemporaryWorkspace()
    let crashed = CannedRun(
      status: 4, console: "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
      events: EventStreamFixture.run(
        tests: CannedRun.tests, failing: ["a()"], running: ["b()"], ended: false,
        comments: ["a()": #"Task 1 "Pass a" (Docs/01-Intro.md): expected 1, got 0"#]))
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: crashed))
    #expect(status == 1)
    #expect(
      output.contains("✘ The suite crashed: Fatal error: Unexpectedly found nil while unwrapping an Optional value"),
      "\(output)")
    #expect(output.contains("✘ a(): expected 1, got 0"), "\(output)")
  }

  /// The crash stage 07's Common mistakes warn about: finishing a stream under
  /// the lock its onTermination takes. The usual-cause line names it.
  @Test func aLockTakenTwiceIsNamedAsTheCause() throws {
    let folder = try TemporaryWorkspace()
    let crashed = CannedRun(
      status: 4, console: "Synchronization/LinuxImpl.swift:157: Fatal error: Recursive call to lock Mutex",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["b()"], ended: false))
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: crashed))
    #expect(output.contains("A lock taken twice is the cause"), "\(output)")
    let duplicate = CannedRun(
      status: 4, console: "Swift/NativeDictionary.swift:792: Fatal error: Duplicate values for key: '1'",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["b()"], ended: false))
    let (_, second, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: duplicate))
    #expect(second.contains("Dictionary(uniqueKeysWithValues:), which traps"), "\(second)")
    #expect(!output.contains("A force unwrap, try! or fatalError is the usual cause"), "\(output)")
  }

  @Test func aCrashBeforeAnyTaskWasNamedSendsTheLearnerToTheBacktrace() throws {
    let folder = try TemporaryWorkspace()
    let crashed = CannedRun(
      status: 4, console: "Fatal error: Unexpectedly found nil while unwrapping an Optional value",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["b()"], unstarted: ["c()"], ended: false))
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: crashed))
    #expect(
      output.contains("1 passed, 0 failed, 1 cut short by the crash, 0 skipped, 1 not run (3 tests)"), "\(output)")
    #expect(output.contains("Next: open .build/course/Lesson01Tests.log: the backtrace after"), "\(output)")
  }

  @Test func aPassingLastStageSaysHowManyStagesThePackageHas() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    let (status, output, _) = folder.run(.check(stage: "02"), answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 0)
    #expect(
      output.contains("Stage 02 is solved. That was the last of the 2 stages in this package."),
      "the README lists stages still in preparation, so the last stage here is not the course's last: \(output)")
  }

  @Test func aPassingStageWithADesignsDocSendsTheLearnerToIt() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write("Docs/02-Next-Designs.md", "# Stage 02, after you pass\n")
    let (status, output, _) = folder.run(.check(stage: "02"), answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 0)
    #expect(
      output.contains("Stage 02 is solved. Compare your design: read Docs/02-Next-Designs.md. That was the last"),
      "\(output)")
  }

  /// A test that records an issue naming its task and then hangs: check names it,
  /// its task, the leaked continuation, and a rerun that stops at the limit.
  @Test func aHungSuiteNamesTheHungTestItsTaskAndABoundedRerun() throws {
    let folder = try TemporaryWorkspace()
    let misuse =
      "SWIFT TASK CONTINUATION MISUSE: value(for:operation:) leaked its continuation without resuming it. "
      + "This may cause tasks waiting on it to remain suspended forever."
    let hung = CannedRun(
      status: 9, console: "◇ Test a() started.\n\(misuse)\n\(misuse)",
      events: EventStreamFixture.run(
        tests: CannedRun.tests, failing: ["a()"], running: ["a()"], ended: false,
        comments: ["a()": #"Task 1 "Pass a" (Docs/01-Intro.md): 3 callers should share one run, got 0"#]),
      timedOut: true)
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    #expect(status == 1)
    #expect(output.contains("✘ The suite hung: a() still running when stopped after 15 s."), "\(output)")
    #expect(
      output.contains("✘ a() never ended, in Task 1 \"Pass a\": Docs/01-Intro.md#task-1-pass-a"), "\(output)")
    #expect(
      output.contains("✘ a(): 3 callers should share one run, got 0"),
      "what the test recorded before it was stopped is shown under its task: \(output)")
    #expect(output.components(separatedBy: "The log says: \(misuse)").count == 2, "once: \(output)")
    #expect(
      output.contains("2 passed, 0 failed, 1 hung (stopped after 15 s), 0 skipped, 0 not run (3 tests)"),
      "the hung test is not counted as passed: \(output)")
    #expect(
      output.contains(
        "Next: find the await that never returns in your code that a() calls (the log line above names the function that leaked its "
          + "continuation), Task 1 \"Pass a\": read Docs/01-Intro.md#task-1-pass-a"), "\(output)")
    #expect(output.contains("`swift run course check 01` runs the suite again and stops it after 15 s"), "\(output)")
    #expect(!output.contains("--filter"), "a bare `swift test --filter` would hang for the learner: \(output)")
    #expect(!output.contains("wait forever"), "the suites have a one-minute time limit: \(output)")
    #expect(
      output.contains("one-minute time limit, but does not end while its await ignores cancellation"), "\(output)")
  }

  /// A test that hangs before it records anything names no task itself: the
  /// doc's section that names the test does.
  @Test func aHungTestThatRecordedNothingFindsItsTaskInTheDoc() throws {
    let folder = try TemporaryWorkspace()
    try folder.write(
      "Docs/01-Intro.md",
      "# 01\n\n## Tasks\n\n### Task 1: Pass a\n\n**Tests.** `DemoTests.a`.\n\n### Task 2: Pass b\n\n**Tests.** `b` and `c`.\n"
    )
    let hung = CannedRun(
      status: 9, console: "",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["b()"], ended: false), timedOut: true)
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    #expect(status == 1)
    #expect(
      output.contains("✘ b() never ended, in Task 2 \"Pass b\": Docs/01-Intro.md#task-2-pass-b"), "\(output)")
    #expect(
      output.contains(
        "Next: find the await that never returns in your code that b() calls, Task 2 \"Pass b\": read Docs/01-Intro.md"),
      "\(output)")
  }

  /// swift test passes on nothing of a run it had to stop: the log the report
  /// points to says so, and how to see the runtime's warnings, instead of being empty.
  @Test func theLogOfAHungRunSaysWhyItIsEmpty() throws {
    let folder = try TemporaryWorkspace()
    let hung = CannedRun(
      status: 9, console: "[0/1] Planning build",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["a()"], ended: false), timedOut: true)
    _ = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    let log = try folder.read(".build/course/Lesson01Tests.log")
    #expect(log.contains("(course) swift test passed on none of the test run's output"), "\(log)")
    #expect(log.contains("--testing-library swift-testing --filter Lesson01Tests"), "\(log)")
  }

  /// A run stopped before any test started (the event stream is empty): the
  /// test runner was still planning, so check says so and where to look.
  @Test func aSuiteThatHangsBeforeItsFirstTestSaysWhereToLook() throws {
    let folder = try TemporaryWorkspace()
    let hung = CannedRun(status: 9, console: "", events: "", timedOut: true)
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    #expect(status == 1)
    #expect(output.contains("✘ The suite hung: stopped after 15 s, before its first test started."), "\(output)")
    #expect(
      output.contains(
        "Next: the suite hung before its first test started, while the test runner was deciding what to run"),
      "\(output)")
    #expect(output.contains("`swift run course check 01` runs the suite again and stops it after 15 s"), "\(output)")
  }

  /// The real Lesson05 run that hung: counts, the continuation line, and the
  /// `StageGuide` comment of an expectation whose value is a stub's text.
  @Test func aRealHungRunShowsHonestCountsAndTheGuidesComment() throws {
    let folder = try TemporaryWorkspace()
    let hung = CannedRun(
      status: 9, console: RealStream.lesson05HungConsole, events: RealStream.lesson05Hung, timedOut: true)
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    #expect(
      output.contains("0 passed, 3 failed, 2 hung (stopped after 15 s), 0 skipped, 0 not run (5 tests)"), "\(output)")
    #expect(output.contains("✘ aHundredIdenticalCallsShareOneRun() never ended\n"), "\(output)")
    #expect(output.contains("The log says: SWIFT TASK CONTINUATION MISUSE: value(for:operation:) leaked"), "\(output)")
    #expect(
      output.contains(
        #"✘ saysHowLongAgo(age:text:): 0.0 s after the fetch the screen says "Updated just now", got "Not done yet"#),
      "the guide's comment, not the expectation's expansion: \(output)")
    #expect(!output.contains(#"should say how long ago") == (text"#), "\(output)")
  }
  /// The real Lesson03 run in which the repository threw: under each comment, the
  /// error swift-testing caught or `#expect(throws:)` saw, and nothing that only
  /// repeats a stub the line already names as unfinished.
  @Test func aThrownErrorIsShownUnderItsComment() throws {
    let folder = try TemporaryWorkspace()
    let lesson = CannedRun(status: 1, events: RealStream.lesson03Threw)
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: lesson))
    #expect(
      output.contains(
        "✘ passesOneProductThrough(): product(id: 9) should return the source's product 9, Kettle; it threw instead\n"
          + #"    Caught error: .transport("x")"# + "\n"), "\(output)")
    #expect(
      output.contains(#"✘ asksTheRemoteSourceForTheFirstPage(): "#) && output.contains("    Caught error: .offline\n"),
      "\(output)")
    #expect(
      output.contains(
        "✘ letsTheDataLayersErrorsThrough(): the source's 404 for product 404 should reach the caller unchanged\n"
          + #"    expected error ".http(status: 404, message: Optional("Product with id \'404\' not found"))" of type "#
          + #"RemoteDataSourceError, but ".transport("x")" of type RemoteDataSourceError was thrown instead"#),
      "\(output)")
    #expect(
      output.contains("    Caught error: Not done yet: Task 7"),
      "Task 7's stub under Task 7's line that only says it threw is the to-do: \(output)")
    #expect(!output.contains("(viewModel.state →"), "the comment already quotes Task 3's stub: \(output)")
    #expect(output.split(separator: "\n").filter { $0.hasPrefix("    ") }.count == 4, "\(output)")
  }
}
