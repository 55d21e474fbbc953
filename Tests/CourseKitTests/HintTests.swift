import CourseKit
import Foundation
import Testing

/// `course hint`: one level per call, remembered in .build/course/hints.json.
struct HintTests {
  @Test func givesOneMoreHintEachCallAndRemembersHowFar() throws {
    let folder = try TemporaryWorkspace()
    let first = folder.run(.hint(stage: "01", task: 1))
    #expect(first.status == 0)
    #expect(first.output.contains("Stage 01, Task 1: Pass a · hint 1 of 2"), "\(first.output)")
    #expect(first.output.contains("Look at a."))
    #expect(!first.output.contains("Return 1 from a."), "one level per call")
    #expect(first.runner.recorded.isEmpty, "a named task needs no build and no test run")
    let second = folder.run(.hint(stage: "01", task: 1))
    #expect(second.output.contains("hint 2 of 2"), "\(second.output)")
    #expect(second.output.contains("Return 1 from a."))
    #expect(!second.output.contains("Look at a."))
    let ledger = try folder.read(".build/course/hints.json")
    #expect(ledger.contains(#""01" : {"#) && ledger.contains(#""1" : 2"#), "\(ledger)")
  }

  @Test func whenEveryHintIsShownItSaysSoAndPointsToDiff() throws {
    let folder = try TemporaryWorkspace()
    for _ in 0..<2 { _ = folder.run(.hint(stage: "01", task: 2)) }
    let third = folder.run(.hint(stage: "01", task: 2))
    #expect(third.output.contains("hint 2 of 2"), "the last hint again: \(third.output)")
    #expect(third.output.contains("### not a heading"), "a heading inside a code block is part of the hint")
    #expect(third.output.contains("you have seen all 2"), "\(third.output)")
    #expect(third.output.contains("`swift run course diff 01`"))
  }

  /// A suite that hangs gets the hang's next step, and no hint level is spent.
  @Test func whenTheSuiteHangsItSaysSoInsteadOfAHint() throws {
    let folder = try TemporaryWorkspace()
    let hung = CannedRun(
      status: 9, console: "",
      events: EventStreamFixture.run(tests: CannedRun.tests, running: ["a()"], ended: false), timedOut: true)
    let (status, output, _) = folder.run(.hint(stage: "01", task: nil), answers: CannedRun.answer(lesson: hung))
    #expect(status == 1)
    #expect(output.contains("Stage 01's suite hangs, so no task's hint fits yet."), "\(output)")
    #expect(output.contains("find the await that never returns in your code that a() calls"), "\(output)")
    #expect(!output.contains("hint 1 of"), "\(output)")
    #expect((try? folder.read(".build/course/hints.json")) == nil, "no hint level was spent")
  }

  @Test func withoutATaskItHintsTheFirstFailingOne() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, runner) = folder.run(
      .hint(stage: "01", task: nil), answers: CannedRun.answer(lesson: CheckTests.shuffled))
    #expect(status == 0)
    #expect(output.contains("Task 1: Pass a · hint 1 of 2"), "\(output)")
    #expect(runner.recorded.contains { StubCommandRunner.filter($0) == "Lesson01Tests\\." }, "it ran the suite")
  }

  @Test func aTaskWithoutHintsSaysWhichTasksHaveThem() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = folder.run(.hint(stage: "01", task: 9))
    #expect(status == 1)
    #expect(output.contains("Stage 01 has no hints for Task 9. Tasks with hints: 1, 2."), "\(output)")
  }

  @Test func aStageThatPassesHasNothingToHint() throws {
    let folder = try TemporaryWorkspace()
    let (status, output, _) = folder.run(.hint(stage: "01", task: nil), answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 0)
    #expect(output.contains("Stage 01 passes: there is nothing to hint."), "\(output)")
  }
}
