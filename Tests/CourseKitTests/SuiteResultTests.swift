import CourseKit
import Testing

struct SuiteResultTests {
  let tests = ["saysSoWhenOffline()", "reportsAnHTTPError(status:message:)", "showsTheFirstPage()"]

  @Test func readsAFailingRun() {
    let stream = EventStreamFixture.run(
      tests: tests, failing: ["saysSoWhenOffline()", "reportsAnHTTPError(status:message:)"],
      parameterized: ["reportsAnHTTPError(status:message:)"])
    let result = SuiteResult(eventStream: stream, console: "", stoppedAfter: nil)
    #expect(result.total == 3)
    #expect(
      result.failedTests == ["saysSoWhenOffline()", "reportsAnHTTPError(status:message:)"],
      "a parameterized test with three failing cases counts once")
    #expect(result.passed == 1)
    #expect(result.ending == .finished)
    #expect(!result.allPassed)
  }

  @Test func readsAPassingRun() {
    let result = SuiteResult(eventStream: EventStreamFixture.run(tests: tests), console: "", stoppedAfter: nil)
    #expect(result == SuiteResult(total: 3, failedTests: [], ending: .finished))
    #expect(result.allPassed)
  }

  /// A stage skips a test that needs an earlier task: it has not passed, and a
  /// lesson with only skipped and passing tests is not solved.
  @Test func aSkippedTestIsNeitherPassedNorFailed() {
    let stream = EventStreamFixture.run(
      tests: tests, failing: ["saysSoWhenOffline()"], skipped: ["showsTheFirstPage()"])
    let result = SuiteResult(eventStream: stream, console: "", stoppedAfter: nil)
    #expect(result.failedTests == ["saysSoWhenOffline()"])
    #expect(result.skippedTests == ["showsTheFirstPage()"])
    #expect(result.passed == 1, "3 tests, 1 failed, 1 skipped: 1 passed, got \(result.passed)")
    let onlySkipped = SuiteResult(
      eventStream: EventStreamFixture.run(tests: tests, skipped: ["showsTheFirstPage()"]), console: "",
      stoppedAfter: nil)
    #expect(!onlySkipped.allPassed, "a run with a skipped test is not all passed")
  }

  @Test func aKnownIssueIsNotAFailure() {
    let stream = EventStreamFixture.run(tests: tests, knownIssues: ["showsTheFirstPage()"])
    #expect(SuiteResult(eventStream: stream, console: "", stoppedAfter: nil).allPassed)
  }

  /// The console is never read for counts: SF Symbols on a Mac, other glyphs, no glyphs, or nothing.
  @Test(arguments: [
    "✘ Test saysSoWhenOffline() failed after 0.3 seconds with 1 issue.\n✘ Test run with 3 tests failed.",
    "\u{10065B} Test saysSoWhenOffline() failed after 0.3 seconds with 1 issue.\n\u{10065B} Test run with 3 tests failed.",
    "✔ Test run with 3 tests in 1 suite passed after 0.1 seconds.",
    "Test run with 7 tests in 1 suite failed.",
    "",
  ])
  func theConsoleNeverChangesTheCounts(console: String) {
    let stream = EventStreamFixture.run(tests: tests, failing: ["saysSoWhenOffline()"])
    let result = SuiteResult(eventStream: stream, console: console, stoppedAfter: nil)
    #expect(
      result
        == SuiteResult(
          total: 3, failedTests: ["saysSoWhenOffline()"], ending: .finished,
          failures: [TestNote(test: "saysSoWhenOffline()", messages: ["…"])]))
  }

  /// Tests run in parallel: the crash names the test its backtrace shows, not every test that was running.
  @Test func aCrashNamesTheTestInItsBacktrace() {
    let stream = EventStreamFixture.run(tests: tests, running: tests, ended: false)
    let console = """
      Fatal error: Duplicate values for key: '1'
      Thread 1 "oot.default-qos":
      0 0x0000 LessonTests.showsTheFirstPage() + 12 in RepositoryCoursePackageTests.xctest
      Thread 2 "oot.default-qos" crashed:
      5 [ra] 0x0000 LessonTests.saysSoWhenOffline() + 603 in RepositoryCoursePackageTests.xctest at /course/Tests/02-DataSources/LocalDataSourceTests.swift:37:45
      Thread 3 "-qos.overcommit":
      0 0x0000 LessonTests.reportsAnHTTPError(status:message:) + 1 in RepositoryCoursePackageTests.xctest
      """
    let result = SuiteResult(eventStream: stream, console: console, stoppedAfter: nil)
    #expect(result.ending == .crashed("Fatal error: Duplicate values for key: '1', in saysSoWhenOffline()"))
  }

  @Test func aRunThatNeverEndedCrashedAndSaysWhereAndWhy() {
    let stream = EventStreamFixture.run(tests: tests, running: ["showsTheFirstPage()"], ended: false)
    let console = """
      ◇ Test showsTheFirstPage() started.
      Fatal error: Unexpectedly found nil while unwrapping an Optional value
      error: Exited with unexpected signal code 4
      """
    let result = SuiteResult(eventStream: stream, console: console, stoppedAfter: nil)
    #expect(
      result.ending
        == .crashed(
          "Fatal error: Unexpectedly found nil while unwrapping an Optional value, in showsTheFirstPage()"))
    #expect(!result.allPassed)
  }

  @Test func aRunWithoutAnEventStreamCrashedAndQuotesTheLastLine() {
    let result = SuiteResult(eventStream: "", console: "error: no tests found\n", stoppedAfter: nil)
    #expect(result.ending == .crashed("error: no tests found"))
  }

  @Test func aStoppedRunHungAndNamesTheTestsStillRunning() {
    let stream = EventStreamFixture.run(tests: tests, running: ["saysSoWhenOffline()"], ended: false)
    let result = SuiteResult(eventStream: stream, console: "", stoppedAfter: 15)
    #expect(result.ending == .hung(running: ["saysSoWhenOffline()"], limit: 15))
    #expect(result.brokenReason == "hung: saysSoWhenOffline() still running when stopped after 15 s")
  }

  @Test func aTruncatedLastRecordIsSkipped() {
    let stream = EventStreamFixture.run(tests: tests, running: tests, ended: false)
    let cut = stream + #"{"kind":"event","payload":{"kind":"testEnd"#
    let result = SuiteResult(eventStream: cut, console: "", stoppedAfter: 15)
    #expect(result.total == 3)
    #expect(
      result.brokenReason
        == "hung: saysSoWhenOffline(), reportsAnHTTPError(status:message:) and showsTheFirstPage() still running when stopped after 15 s"
    )
  }

  @Test func aRunOfNoTestsIsNotAPass() {
    let result = SuiteResult(eventStream: EventStreamFixture.run(tests: []), console: "", stoppedAfter: nil)
    #expect(result.total == 0)
    #expect(!result.allPassed, "a suite that ran nothing proves nothing")
  }

  /// A real run stopped at its limit: the two tests that never ended are hung, not passed.
  @Test func aHungTestIsNotPassed() {
    let result = SuiteResult(
      eventStream: RealStream.lesson05Hung, console: RealStream.lesson05HungConsole, stoppedAfter: 15)
    #expect(result.total == 5)
    #expect(result.unfinishedTests == ["aHundredIdenticalCallsShareOneRun()", "anErrorReachesEveryCaller()"])
    #expect(result.failed == 3, "3 tests failed and ended, got \(result.failedTests)")
    #expect(result.passed == 0, "no test passed: 3 failed and 2 never ended; got \(result.passed) passed")
    #expect(result.tally == "0 passed, 3 failed, 2 hung (stopped after 15 s), 0 skipped, 0 not run (5 tests)")
  }

  /// A test that records issues and then hangs counts once, as hung; tests the stopped run never started are not run.
  @Test func aTestThatFailsThenHangsIsHungAndUnstartedTestsAreNotRun() {
    let stream = EventStreamFixture.run(
      tests: tests, failing: ["saysSoWhenOffline()"], running: ["saysSoWhenOffline()"],
      unstarted: ["showsTheFirstPage()"], ended: false)
    let result = SuiteResult(eventStream: stream, console: "", stoppedAfter: 15)
    #expect(result.failedTests == [], "a test that never ended is hung, not failed; got \(result.failedTests)")
    #expect(result.unfinishedTests == ["saysSoWhenOffline()"])
    #expect(result.notRunTests == ["showsTheFirstPage()"])
    #expect(result.passed == 1, "only reportsAnHTTPError ran to its end; got \(result.passed) passed")
    #expect(result.tally == "1 passed, 0 failed, 1 hung (stopped after 15 s), 0 skipped, 1 not run (3 tests)")
    #expect(result.failures.map(\.test) == ["saysSoWhenOffline()"], "its issues are still shown")
  }

  @Test func testsACrashCutShortAreNotPassed() {
    let stream = EventStreamFixture.run(
      tests: tests, running: ["saysSoWhenOffline()"], unstarted: ["showsTheFirstPage()"], ended: false)
    let result = SuiteResult(eventStream: stream, console: "Fatal error: boom", stoppedAfter: nil)
    #expect(result.passed == 1)
    #expect(result.tally == "1 passed, 0 failed, 1 cut short by the crash, 0 skipped, 1 not run (3 tests)")
  }

  @Test func keepsEachLeakedContinuationLineOnce() {
    let result = SuiteResult(
      eventStream: RealStream.lesson05Hung, console: RealStream.lesson05HungConsole, stoppedAfter: 15)
    #expect(
      result.clues == [
        "SWIFT TASK CONTINUATION MISUSE: value(for:operation:) leaked its continuation without resuming it. "
          + "This may cause tasks waiting on it to remain suspended forever."
      ])
  }
}
