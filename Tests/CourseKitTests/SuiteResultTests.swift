import CourseKit
import Testing

struct SuiteResultTests {
  @Test func readsAFailingRun() {
    let output = """
      ◇ Test run started.
      ✘ Test saysSoWhenOffline() recorded an issue at File.swift:115:5: Expectation failed
      ✘ Test saysSoWhenOffline() failed after 0.317 seconds with 1 issue.
      ✘ Test reportsAnHTTPError(status:message:) with 2 test cases failed after 0.317 seconds with 2 issues.
      ✔ Test showsTheFirstPage() passed after 0.3 seconds.
      ✘ Suite ProductListViewModelTests failed after 0.338 seconds with 3 issues.
      ✘ Test run with 10 tests in 1 suite failed after 0.338 seconds with 3 issues.
      """
    let result = SuiteResult.parse(output)
    #expect(result.total == 10)
    #expect(result.failedTests == ["saysSoWhenOffline()", "reportsAnHTTPError(status:message:)"])
    #expect(result.passed == 8)
    #expect(result.ending == .finished)
    #expect(!result.allPassed)
  }

  @Test func readsAPassingRun() {
    let result = SuiteResult.parse("✔ Test run with 12 tests in 2 suites passed after 0.3 seconds.")
    #expect(result == SuiteResult(total: 12, failedTests: [], ending: .finished))
    #expect(result.allPassed)
  }

  @Test func aRunWithoutItsSummaryCrashed() {
    let output = """
      ✔ Test a() passed after 0.1 seconds.
      Fatal error: Unexpectedly found nil while unwrapping an Optional value
      error: Exited with unexpected signal code 4
      """
    let result = SuiteResult.parse(output)
    #expect(result.ending == .crashed("Fatal error: Unexpectedly found nil while unwrapping an Optional value"))
    #expect(!result.allPassed)
  }

  @Test func aTimedOutRunSaysSo() {
    #expect(SuiteResult.parse("✔ Test a() passed after 0.1 seconds.", timedOut: true).ending == .timedOut)
  }

  @Test func aRunOfNoTestsIsNotAPass() {
    let result = SuiteResult.parse("✔ Test run with 0 tests in 0 suites passed after 0.001 seconds.")
    #expect(!result.allPassed, "a suite that ran nothing proves nothing")
  }
}
