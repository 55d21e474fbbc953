import CourseKit
import Testing

struct StageVerdictTests {
  let stage = Stage(number: "01", name: "ViewCallsURLSession")
  let failing = SuiteResult(total: 10, failedTests: ["a()", "b()"], ending: .finished)
  let passing = SuiteResult(total: 10, failedTests: [], ending: .finished)

  @Test func failingStartingCodeAndAPassingSolutionKeepTheContract() {
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: failing, solution: passing)
    #expect(verdict.keepsContract)
    #expect(verdict.checks.map(\.text).contains("Lesson01 fails 2 of 10 tests and crashes none"))
  }

  @Test func startingCodeReplacedByItsSolutionBreaksIt() throws {
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: passing, solution: passing)
    #expect(!verdict.keepsContract)
    let broken = try #require(verdict.checks.first { !$0.ok })
    #expect(broken.text.contains("Lesson01 passes all 10 tests"))
  }

  @Test func aBrokenSolutionNamesItsFailingTests() throws {
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: failing, solution: failing)
    let broken = try #require(verdict.checks.first { !$0.ok })
    #expect(broken.text == "Solution01 fails 2 of 10 tests: a(), b()")
  }

  @Test func aSolutionThatSkipsATestBreaksIt() throws {
    let skipping = SuiteResult(total: 10, failedTests: [], skippedTests: ["c()"], ending: .finished)
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: failing, solution: skipping)
    let broken = try #require(verdict.checks.first { !$0.ok })
    #expect(broken.text == "Solution01 skips 1 of 10 tests: c(); a solution must run every test")
  }

  @Test(arguments: [SuiteResult.Ending.crashed("signal 4"), .hung(running: ["a()"], limit: 15)])
  func aCrashingOrHangingSuiteBreaksIt(ending: SuiteResult.Ending) {
    let lesson = SuiteResult(total: 0, failedTests: [], ending: ending)
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: lesson, solution: passing)
    #expect(!verdict.keepsContract)
  }

  @Test func aHungLessonSaysWhatItCountedWithoutPassingTheHungTests() throws {
    let lesson = SuiteResult(
      total: 4, failedTests: ["a()"], ending: .hung(running: ["b()"], limit: 15), unfinishedTests: ["b()"],
      notRunTests: ["c()"])
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: lesson, solution: passing)
    let broken = try #require(verdict.checks.first { !$0.ok })
    #expect(
      broken.text.hasPrefix(
        "Lesson01's suite hung: b() still running when stopped after 15 s "
          + "(1 passed, 1 failed, 1 hung (stopped after 15 s), 0 skipped, 1 not run (4 tests))"), "\(broken.text)")
  }

  @Test func missingFilesAndFatalErrorsBreakIt() {
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: ["Docs/01-ViewCallsURLSession.md"],
      fatalErrorFiles: ["Lessons/01-ViewCallsURLSession/A.swift"], lesson: failing, solution: passing)
    #expect(verdict.checks.filter { !$0.ok }.count == 2)
  }

  @Test func suitesOfDifferentSizesBreakIt() {
    let smaller = SuiteResult(total: 9, failedTests: [], ending: .finished)
    let verdict = StageVerdict.judge(
      stage: stage, missingFiles: [], fatalErrorFiles: [], lesson: failing, solution: smaller)
    #expect(!verdict.keepsContract, "the lesson and the solution must run the same suite")
  }
}
