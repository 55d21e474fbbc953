import Foundation
import Synchronization
import Testing

@testable import CourseKit

/// The "Write the test" tasks: the fault list, the schema that compiles every
/// fault once, and what `course check` says about a learner's tests.
struct FaultCheckTests {
  static let list = """
    # Faults for stage 01

    Intro text with `code` that is not a task.

    ## Task 3: Write the test: loading

    Tests: `LoadTests.swift`

    ### The spinner never stops after a failure

    File: `Model.swift`

    Catch it: fail the load, then expect `.failed`.

    ```swift
        state = .failed(message)
    ```

    ```swift
        _ = message
    ```

    ### An empty answer shows as a list

    File: `Model.swift`

    Catch it: load `[]`, then expect `.empty`.

    ```swift expression
    items.isEmpty ? .empty : .loaded(items)
    ```

    ```swift
    .loaded(items)
    ```

    ### A success keeps the spinner

    File: `Model.swift`

    Catch it: expect `.loaded` after a success.

    ```swift
        state = items.isEmpty ? .empty : .loaded(items)
    ```

    ```swift
        _ = items
    ```

    ## Task 4: Write the test: retry

    Tests: `RetryTests.swift`, `MoreRetryTests.swift`

    ### Retry does nothing

    File: `Model.swift`

    Catch it: expect the second answer after `retry()`.

    ```swift
        await load()
    ```

    ```swift
        _ = ()
    ```

    """

  static let model = """
    func load() async {
      do {
        let items = try await fetch()
        state = items.isEmpty ? .empty : .loaded(items)
      } catch {
        state = .failed(message)
      }
    }

    func retry() async {
        await load()
    }

    """

  @Test func readsTasksFaultsAndTheirIDs() {
    let list = FaultList(markdown: Self.list)
    #expect(list.problems == [])
    #expect(list.tasks.map(\.number) == [3, 4])
    #expect(list.tasks.map(\.title) == ["Write the test: loading", "Write the test: retry"])
    #expect(list.tasks[1].testFiles == ["RetryTests.swift", "MoreRetryTests.swift"])
    #expect(list.faults.map(\.id) == ["t3f1", "t3f2", "t3f3", "t4f1"])
    #expect(list.faults.map(\.isExpression) == [false, true, false, false])
    #expect(list.faults[0].file == "Model.swift")
    #expect(list.faults[0].catchIt == "fail the load, then expect `.failed`.")
    #expect(list.faults[0].original == "    state = .failed(message)")
    #expect(list.faults[1].replacement == ".loaded(items)")
  }

  @Test func namesWhatAFaultLacks() {
    let list = FaultList(
      markdown: "## Task 1: Write the test: a\n\n### No blocks\n\nFile: `A.swift`\n\n```swift\nx\n```\n")
    #expect(
      list.problems == [
        "fault \"No blocks\" needs two fenced blocks (the solution's text, then the fault's), has 1",
        "Task 1 has no `Tests:` line naming its files in YourTests/",
      ])
  }

  @Test func compilesEveryFaultOnceBehindItsSwitchEvenWhenOneIsInsideAnother() throws {
    let list = FaultList(markdown: Self.list)
    let faulted = try FaultSchema.apply(list.faults, to: Self.model)
    #expect(faulted.contains("if courseFault(\"t3f1\") {\n    _ = message\n} else {\n    state = .failed(message)\n}"))
    // The expression fault sits inside the statement fault's `else`.
    #expect(
      faulted.contains(
        "if courseFault(\"t3f3\") {\n    _ = items\n} else {\n    state = (courseFault(\"t3f2\") ? (.loaded(items)) : "
          + "(items.isEmpty ? .empty : .loaded(items)))\n}"))
    #expect(faulted.contains("if courseFault(\"t4f1\") {\n    _ = ()\n} else {\n    await load()\n}"))
  }

  @Test func refusesAFaultWhoseTextIsNotInItsFileExactlyOnce() {
    var fault = FaultList(markdown: Self.list).faults[0]
    fault.original = "state"
    #expect(throws: FaultSchema.Problem.self) { try FaultSchema.apply([fault], to: Self.model) }
  }

  @Test func readsAReferenceTestAsTheLearnersModule() {
    let stage = Stage(number: "03", name: "DI")
    #expect(
      FaultCheck.asLesson("@testable import Solution03\nlet x: Solution03.Product\nSolution030", stage: stage)
        == "@testable import Lesson03\nlet x: Lesson03.Product\nSolution030")
  }

  // MARK: - A whole check, against a stub `swift`

  /// One run's stream: `tests` are (name, file); `failing` names the ones that record an issue with `message`.
  static func stream(_ tests: [(String, String)], failing: Set<String>, message: String = "expected 1, got 2") -> String
  {
    func id(_ name: String, _ file: String) -> String { "YourTests.\(name)/\(file):1:1" }
    var lines = tests.map { name, file in
      #"{"kind":"test","payload":{"id":"\#(id(name, file))","kind":"function","name":"\#(name)","#
        + #""sourceLocation":{"fileID":"YourTests/\#(file)","line":1,"column":1}},"version":0}"#
    }
    for (name, file) in tests {
      lines.append(#"{"kind":"event","payload":{"kind":"testStarted","testID":"\#(id(name, file))"},"version":0}"#)
      if failing.contains(name) {
        lines.append(
          #"{"kind":"event","payload":{"kind":"issueRecorded","testID":"\#(id(name, file))","#
            + #""issue":{"isKnown":false},"messages":[{"symbol":"fail","text":"\#(message)"}]},"version":0}"#)
      }
      lines.append(#"{"kind":"event","payload":{"kind":"testEnded","testID":"\#(id(name, file))"},"version":0}"#)
    }
    lines.append(#"{"kind":"event","payload":{"kind":"runEnded"},"version":0}"#)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The fault a `swift test` command line turns on, `""` for none.
  static func fault(_ arguments: [String]) -> String? {
    arguments.first { $0.hasPrefix("\(FaultSchema.variable)=") }.map {
      String($0.dropFirst(FaultSchema.variable.count + 1))
    }
  }

  func outcomes(_ answer: @escaping @Sendable (String) -> String) throws -> [FaultCheck.TaskOutcome] {
    let folder = try TemporaryWorkspace(stages: ["01-Intro"])
    try folder.write("Solutions/01-Intro/Model.swift", Self.model)
    try folder.write("Faults/01-Intro.md", Self.list)
    let runner = StubCommandRunner { arguments in
      guard let fault = Self.fault(arguments) else { return CannedRun(status: 0) }
      return CannedRun(status: 0, events: answer(fault))
    }
    let check = FaultCheck(
      workspace: folder.workspace, runner: runner, stage: Stage(number: "01", name: "Intro"),
      list: FaultList(markdown: Self.list))
    try check.prepare()
    let faulted = try String(
      contentsOf: folder.workspace.url("\(check.scratch)/Sources/Lesson01/Model.swift"), encoding: .utf8)
    #expect(faulted.contains("courseFault(\"t3f1\")"), "the scratch module holds the faults")
    return try check.outcomes(.learner)
  }

  static let tests = [("a()", "LoadTests.swift"), ("b()", "LoadTests.swift"), ("r()", "MoreRetryTests.swift")]

  @Test func aFaultIsCaughtWhenOneOfTheTasksTestsFailsAgainstIt() throws {
    let results = try outcomes { fault in
      switch fault {
      case "t3f1": Self.stream(Self.tests, failing: ["b()"])
      case "t3f2": Self.stream(Self.tests, failing: ["r()"])  // another task's test: not this task's catch
      case "t4f1": Self.stream(Self.tests, failing: ["r()"])
      default: Self.stream(Self.tests, failing: [])
      }
    }
    #expect(results.map(\.tests) == [["a()", "b()"], ["r()"]])
    #expect(results[0].caught.map(\.id) == ["t3f1"])
    #expect(results[0].missed.map(\.id) == ["t3f2", "t3f3"])
    #expect(results[1].isComplete)
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(lines.contains("✘ Task 3 \"Write the test: loading\": Your tests caught 1 of 3 faults."), "\(lines)")
    #expect(
      lines.contains("    missed: An empty answer shows as a list. To catch it: load `[]`, then expect `.empty`."))
    #expect(lines.contains("✔ Task 4 \"Write the test: retry\": Your tests caught 1 of 1 faults."), "\(lines)")
  }

  @Test func testsThatPassAgainstEveryFaultAreToldTheyAssertNothing() throws {
    let results = try outcomes { _ in Self.stream(Self.tests, failing: []) }
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(lines.contains("✘ Task 3 \"Write the test: loading\": Your tests caught 0 of 3 faults."), "\(lines)")
    #expect(
      lines.contains { $0.contains("A test that asserts nothing, or only that a value is not nil, catches none") })
  }

  @Test func aTestThatFailsOnTheReferenceCatchesNothing() throws {
    let results = try outcomes { _ in Self.stream(Self.tests, failing: ["a()"], message: "expected 3 items, got 2") }
    #expect(results[0].caught.isEmpty, "a test that fails whatever the code catches no fault")
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(
      lines.contains(
        "    a() fails against the reference solution on every one of 5 runs, so it expects something the reference "
          + "does not do: a value the task does not ask for, or one the test works out wrong. It says:"), "\(lines)")
    #expect(lines.contains("      expected 3 items, got 2"))
  }

  /// A test that races fails against the reference on some runs only: the check
  /// runs the reference again and says so, with the test's message, instead of
  /// sending the learner after a requirement the task does not have.
  @Test func aTestThatFailsOnSomeRunsOfTheReferenceIsToldItRaces() throws {
    let referenceRuns = Mutex(0)
    let results = try outcomes { fault in
      guard fault.isEmpty else { return Self.stream(Self.tests, failing: []) }
      let run = referenceRuns.withLock { count in
        count += 1
        return count
      }
      // The first and the fourth of five runs fail.
      return Self.stream(Self.tests, failing: [1, 4].contains(run) ? ["a()"] : [], message: "expected 2 calls, got 1")
    }
    #expect(referenceRuns.withLock { $0 } == 5, "one run, then four more because a() failed")
    #expect(results[0].failingOnReference.map(\.failedRuns) == [2])
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(
      lines.contains {
        $0.hasPrefix("    a() fails against the reference solution on 2 of 5 runs and passes on the others: it races.")
      }, "\(lines)")
    #expect(lines.contains("      expected 2 calls, got 1"), "\(lines)")
    #expect(!lines.contains { $0.contains("expects something the reference does not do") }, "\(lines)")
  }

  /// The placeholder fails on every run by design: it is not run again.
  @Test func thePlaceholderIsNotRunAgain() throws {
    let referenceRuns = Mutex(0)
    _ = try outcomes { fault in
      if fault.isEmpty { referenceRuns.withLock { $0 += 1 } }
      return Self.stream(
        Self.tests, failing: ["a()", "b()", "r()"], message: "Not done yet: Task 3 in Docs/01-Intro.md")
    }
    #expect(referenceRuns.withLock { $0 } == 1)
  }

  @Test func theTestsThatPassOnTheReferenceStillCountBesideOneThatFails() throws {
    let results = try outcomes { fault in
      Self.stream(Self.tests, failing: fault == "t3f1" ? ["a()", "b()"] : ["a()"], message: "expected 3, got 2")
    }
    #expect(results[0].caught.map(\.id) == ["t3f1"], "b() passes on the reference and fails on t3f1")
    #expect(!results[0].isComplete, "a task with a test that fails on the reference is not done")
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(
      lines.contains(
        "✘ Task 3 \"Write the test: loading\": Your tests caught 1 of 3 faults. (Only the tests that pass against the reference count.)"
      ), "\(lines)")
  }

  @Test func thePlaceholderIsNamedAsSuch() throws {
    let results = try outcomes { _ in
      Self.stream(
        Self.tests, failing: ["a()", "b()", "r()"], message: "Not done yet: Task 3 in Docs/01-Intro.md: write")
    }
    #expect(results.allSatisfy { $0.isPlaceholder })
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(
      lines.contains(
        "    YourTests/LoadTests.swift still holds the placeholder. Replace it with your tests (Docs/01-Intro.md, Task 3)."
      ),
      "\(lines)")
  }

  @Test func aTaskWithNoTestsInItsFilesSaysWhereToWriteThem() throws {
    let results = try outcomes { _ in Self.stream([("a()", "Other.swift")], failing: []) }
    let lines = FaultCheck.lines(results, stage: Stage(number: "01", name: "Intro"), style: Style(colored: false))
    #expect(
      lines.contains("    No tests ran from YourTests/LoadTests.swift. Write them there (Docs/01-Intro.md, Task 3)."),
      "\(lines)")
  }

  @Test func theLedgerTrustsACheckOnlyForTheTestsItChecked() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro"])
    try folder.write("Faults/01-Intro.md", Self.list)
    try folder.write("Lessons/01-Intro/YourTests/LoadTests.swift", "// mine")
    let ledger = FaultLedger(workspace: folder.workspace, stage: Stage(number: "01", name: "Intro"))
    #expect(!ledger.isComplete && !ledger.isCurrent)
    ledger.record(complete: true)
    #expect(ledger.isComplete)
    try folder.write("Lessons/01-Intro/YourTests/LoadTests.swift", "// mine, edited")
    #expect(!ledger.isComplete && !ledger.isCurrent, "an edit to a test needs a new check")
  }
}

/// `course verify` and the "Write the test" tasks.
struct FaultVerifyTests {
  @Test func aCourseWithFaultsNeedsThemFromStageTwoOn() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write(
      "Docs/02-Next.md", "# Next\n\n" + TemporaryWorkspace.decisions + "## Tasks\n\n" + TemporaryWorkspace.tasks)
    let (_, plainOutput, _) = folder.run(.verify)
    #expect(!plainOutput.contains("Faults/"), "a course without Faults/ is not asked for test tasks: \(plainOutput)")
    try folder.write("Faults/README.md", "The faults of each stage's test tasks.\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Faults/02-Next.md is missing: from stage 02 on, every stage has a \"Write the test\" task"),
      "\(output)")
    #expect(!output.contains("Faults/01-Intro.md"), "stage 01 has no test task: \(output)")
  }
}

/// `course status` and the "Write the test" tasks.
struct FaultStatusTests {
  @Test func aPassingStageIsSolvedOnlyOnceItsTestsCatchEveryFault() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Faults/01-Intro.md", FaultCheckTests.list)
    let (_, before, _) = folder.run(.status, answers: CannedRun.answer(lesson: .allPass))
    #expect(before.contains("● in progress   3/3 tests pass"), "\(before)")
    #expect(before.contains("your tests: run `swift run course check 01`"), "\(before)")
    FaultLedger(workspace: folder.workspace, stage: Stage(number: "01", name: "Intro")).record(complete: true)
    let (_, after, _) = folder.run(.status, answers: CannedRun.answer(lesson: .allPass))
    #expect(after.contains("✔ solved"), "\(after)")
    let (_, failing, _) = folder.run(.status, answers: CannedRun.answer(lesson: .lessonFails))
    #expect(!failing.contains("your tests"), "a stage whose suite fails is not told about its tests: \(failing)")
  }
}

/// `course check` on a stage whose suite passes while the learner's own tests are not done.
struct FaultCheckCommandTests {
  @Test func aPassingSuiteWithUnfinishedTestsSaysTheTestsAreNext() throws {
    let folder = try TemporaryWorkspace()
    try folder.write("Faults/01-Intro.md", FaultCheckTests.list)
    try folder.write("Solutions/01-Intro/Model.swift", FaultCheckTests.model)
    let (status, output, _) = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: .allPass))
    #expect(status == 1, "the stage is not done while its tests are not: \(output)")
    #expect(output.contains("✘ Task 3 \"Write the test: loading\": Your tests caught 0 of 3 faults."), "\(output)")
    #expect(output.contains("No tests ran from YourTests/LoadTests.swift"), "\(output)")
    #expect(
      output.contains("Next: every test of the suite passes; your own tests of Tasks 3 and 4"), "\(output)")
    #expect(!output.contains("Stage 01 is solved"), "\(output)")
  }
}
