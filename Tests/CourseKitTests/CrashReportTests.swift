import Foundation
import Testing

@testable import CourseKit

/// A crash names its test and task, like every other view, and a cause that fits the trap.
struct CrashReportTests {
  /// Swift's backtracer on Linux, for an overflow: the trap has no "Fatal error" line.
  static let overflowConsole = """
    ◇ Test b() started.

    *** Signal 4: Backtracing from 0x562ae7b147c8... done ***

    *** Swift runtime failure: arithmetic overflow ***

    Thread 0 "Intro":
    0      0x00007fc512292301 sigsuspend + 65 in libc.so.6

    Thread 2 "oot.default-qos" crashed:
    0 [inlined] [system] 0x0000 Swift runtime failure: arithmetic overflow in Lesson01 at /course/Lessons/01-Intro/A.swift:3:5
    1 0x0000 total(of:) + 60 in RepositoryCoursePackageTests.xctest at /course/Lessons/01-Intro/A.swift:3:5
    2 0x0000 DemoTests.b() + 20 in RepositoryCoursePackageTests.xctest at /course/Tests/01-Intro/DemoTests.swift:9:5
    """

  static let overflow = CannedRun(
    status: 4, console: overflowConsole,
    events: EventStreamFixture.run(tests: CannedRun.tests, running: ["a()", "b()"], ended: false))

  @Test func anOverflowIsNamedAsTheCauseNotAForceUnwrap() throws {
    let folder = try TemporaryWorkspace()
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.overflow))
    #expect(output.contains("✘ The suite crashed: Swift runtime failure: arithmetic overflow, in b()"), "\(output)")
    #expect(output.contains("An arithmetic overflow is the cause"), "\(output)")
    #expect(!output.contains("force unwrap"), "\(output)")
  }

  /// A doc whose task sections name their tests, as the stage docs do.
  static let doc =
    "# 01\n\n## Tasks\n\n### Task 1: Pass a\n\n**Tests.** `a`.\n\n### Task 2: Pass b\n\n**Tests.** `b` and `c`.\n"

  @Test func checkNamesTheCrashedTestAndItsTask() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Docs/01-Intro.md", Self.doc)
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.overflow))
    #expect(status == 1)
    #expect(
      output.contains(#"✘ b() crashed, in Task 2 "Pass b": Docs/01-Intro.md#task-2-pass-b"#), "\(output)")
    #expect(!output.contains("a() crashed"), "a() was running too, but the backtrace names b(): \(output)")
    #expect(output.contains(#"Next: the crash is in Task 2 "Pass b""#), "\(output)")
  }

  /// Test b() (Task 2) crashed in A.swift, which the doc gives to Task 1: as when a
  /// test checks an earlier task's code before its own, the code at fault is Task 1's.
  @Test func aCrashInAFileOfOneTaskNamesThatTask() throws {
    let folder = try TemporaryWorkspace()
    let files =
      "## Your files\n\n- `A.swift`: Task 1, new.\n- `B.swift`: Tasks 1 and 2.\n- `YourTests/C.swift`: Task 2.\n\n"
    try folder.write("Docs/01-Intro.md", Self.doc.replacingOccurrences(of: "## Tasks", with: files + "## Tasks"))
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.overflow))
    #expect(output.contains(#"Next: the crash is in Task 1 "Pass a""#), "\(output)")
    #expect(
      StageDoc(markdown: files).filesOfOneTask().map(\.file) == ["A.swift", "C.swift"],
      "B.swift names two tasks; a backtrace names C.swift without its folder")
  }

  /// The same crash, with the learner's A.swift in the lesson but a backtrace
  /// that runs only through Foundation and the test: no task is blamed.
  @Test func aCrashOutsideTheLearnersFilesBlamesNoTask() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Docs/01-Intro.md", Self.doc)
    try folder.write("Lessons/01-Intro/A.swift", "func total() {}\n")
    let console = Self.overflowConsole.replacingOccurrences(
      of: "/course/Lessons/01-Intro/A.swift", with: "/build/FoundationNetworking/TaskRegistry.swift")
    let run = CannedRun(status: 4, console: console, events: Self.overflow.events)
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: run))
    #expect(output.contains("runs through none of your files in Lessons/01-Intro"), "\(output)")
    #expect(output.contains("TaskRegistry.swift"), "\(output)")
    #expect(!output.contains("Next: the crash is in Task"), "\(output)")
  }

  @Test func statusNamesTheCrashedTaskAndTheCause() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Docs/01-Intro.md", Self.doc)
    let (_, output, _) = folder.run(.status, answers: CannedRun.answer(lesson: Self.overflow))
    #expect(output.contains(#"Next: the crash is in Task 2 "Pass b""#), "\(output)")
    #expect(output.contains("An arithmetic overflow is the cause"), "\(output)")
    #expect(!output.contains("force unwrap"), "\(output)")
  }

  @Test(arguments: [
    ("Fatal error: Unexpectedly found nil while unwrapping an Optional value", "A force unwrap (`!`) of nil"),
    ("Fatal error: 'try!' expression unexpectedly raised an error: x", "A `try!` whose call threw"),
    ("Swift runtime failure: Division by zero", "A division by zero"),
    ("Fatal error: Index out of range", "An index past the end"),
    (
      "Fatal error: Trying to access a behaviour for a task that in not in the registry.",
      "a request ran on a session that was already invalidated"
    ),
    ("Fatal error: Session invalidated", "a request ran on a session that was already invalidated"),
    ("Program crashed: Bad pointer dereference at 0x0000000000000018", "A bad memory access"),
    ("Fatal error: something else", "A force unwrap, try! or fatalError is the usual cause."),
  ])
  func eachTrapHasItsOwnCause(reason: String, cause: String) {
    #expect(StageReport.crashCause(reason).contains(cause))
  }

  @Test func theCrashedTestsAreKeptApartFromTheOthersThatWereRunning() {
    let result = SuiteResult(
      eventStream: EventStreamFixture.run(tests: CannedRun.tests, running: ["a()", "b()"], ended: false),
      console: Self.overflowConsole, stoppedAfter: nil)
    #expect(result.crashedTests == ["b()"])
    #expect(result.unfinishedTests == ["a()", "b()"])
  }
}

/// A hang goes to the task whose code hangs, not to the first task whose test stopped on it.
struct HangRoutingTests {
  @Test func aLeakedContinuationIsTheTaskThatWritesTheFunction() throws {
    let folder = try TemporaryWorkspace()
    try folder.write(
      "Docs/01-Intro.md",
      "# 01\n\n## Tasks\n\n### Task 1: Pass a\n\n**Tests.** `a`.\n\n### Task 2: Share one request\n\n"
        + "**Write.** `RequestCoalescer.value(for:operation:)`.\n\n**Tests.** `b`.\n")
    let misuse =
      "SWIFT TASK CONTINUATION MISUSE: value(for:operation:) leaked its continuation without resuming it. "
      + "This may cause tasks waiting on it to remain suspended forever."
    // a() is Task 1's test, but it waits on the coalescer that Task 2 writes.
    let hung = CannedRun(
      status: 9, console: "◇ Test a() started.\n\(misuse)",
      events: EventStreamFixture.run(
        tests: CannedRun.tests, failing: ["a()"], running: ["a()"], ended: false,
        comments: ["a()": #"Task 1 "Pass a" (Docs/01-Intro.md): expected one page, got none"#]),
      timedOut: true)
    let (_, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: hung))
    #expect(
      output.contains(
        #"Next: value(for:operation:) leaked its continuation (the log line above), so an await in it never returns; a() waited on it. It is Task 2 "Share one request": read Docs/01-Intro.md#task-2-share-one-request"#
      ), "\(output)")
    #expect(StageReport.leakedFunction(misuse) == "value(for:operation:)")
  }
}
