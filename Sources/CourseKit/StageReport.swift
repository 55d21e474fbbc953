import Foundation

/// One run of a stage's lesson suite, grouped by task: what `course check` and `course watch` show.
///
/// The parallel runner records failures in no fixed order; the report puts them
/// in task order, each once, under the doc section that explains the task. A
/// skipped test goes under the task its skip comment names (a stage skips a
/// test until the earlier task it needs is done).
struct StageReport {
  /// One failure: the test, what its message says, and what else the issue
  /// said that the message cannot (see `IssueEvidence`).
  struct Failure: Equatable {
    var test: String
    var detail: String
    var evidence: [String] = []
  }

  /// A task with something to show.
  struct Section: Equatable {
    var task: StageTask
    var failures: [Failure] = []
    /// Tests skipped until this task is done.
    var waiting: [String] = []
  }

  let stage: Stage
  let result: SuiteResult
  /// The stage doc's tasks.
  let tasks: [StageTask]
  /// Tasks with failures or waiting tests, in task order.
  private(set) var sections: [Section] = []
  /// Failures whose messages name no task.
  private(set) var unassigned: [Failure] = []
  /// Skipped tests whose skip names no task.
  private(set) var unassignedSkips: [String] = []
  /// The tests that never ended, in the order they started, each with the task
  /// its recorded issues name, if they name one.
  private(set) var unfinished: [(test: String, task: StageTask?)] = []
  /// The tests a crash happened in, each with its task when known, found as `unfinished`'s are.
  private(set) var crashed: [(test: String, task: StageTask?)] = []

  /// Groups a run's failures and skips by the tasks their messages name.
  ///
  /// - Parameter tasks: The stage doc's tasks; they give titles and order.
  init(stage: Stage, tasks: [StageTask], result: SuiteResult) {
    self.stage = stage
    self.result = result
    self.tasks = tasks
    var byTask: [Int: Section] = [:]
    func section(for reference: TaskReference) -> Int {
      let task =
        tasks.first { $0.number == reference.task }
        ?? StageTask(number: reference.task, title: reference.title ?? "")
      if byTask[task.number] == nil { byTask[task.number] = Section(task: task) }
      return task.number
    }
    for note in result.failures {
      if let reference = TaskReference.find(in: note) {
        let failure = Failure(
          test: note.test, detail: reference.detail, evidence: IssueEvidence.lines(of: note, shown: reference))
        let number = section(for: reference)
        if byTask[number]?.failures.contains(failure) == false { byTask[number]?.failures.append(failure) }
      } else {
        let failure = Failure(test: note.test, detail: note.messages.joined(separator: " "))
        if !unassigned.contains(failure) { unassigned.append(failure) }
      }
    }
    // A test often records issues before it hangs; they say which task it belongs to.
    // One that recorded nothing is looked up in the doc, which names each task's tests.
    func withTask(_ test: String) -> (test: String, task: StageTask?) {
      let reference = result.failures.lazy.filter { $0.test == test }.compactMap(TaskReference.find(in:)).first
      let task = reference.map { reference in
        tasks.first { $0.number == reference.task } ?? StageTask(number: reference.task, title: reference.title ?? "")
      }
      return (test, task ?? tasks.first { $0.names(test) })
    }
    unfinished = result.unfinishedTests.map(withTask)
    crashed = result.crashedTests.map(withTask)
    for note in result.skips {
      if let reference = TaskReference.find(in: note) {
        let number = section(for: reference)
        if byTask[number]?.waiting.contains(note.test) == false { byTask[number]?.waiting.append(note.test) }
      } else if !unassignedSkips.contains(note.test) {
        unassignedSkips.append(note.test)
      }
    }
    // Stable within a task, whatever order the runner took: by test name, then as recorded.
    sections = byTask.keys.sorted().compactMap { byTask[$0] }.map { section in
      var section = section
      section.waiting.sort()
      section.failures = section.failures.enumerated()
        .sorted { ($0.element.test, $0.offset) < ($1.element.test, $1.offset) }.map(\.element)
      return section
    }
  }

  /// The task to work on: the first with a failure, or else the first that tests wait for.
  var firstTask: StageTask? {
    (sections.first { !$0.failures.isEmpty } ?? sections.first)?.task
  }

  /// What usually makes a suite crash with `reason`.
  static func crashCause(_ reason: String) -> String {
    if reason.contains("Recursive call to lock") {
      return "A lock taken twice is the cause: code inside a Mutex's withLock called something that takes the "
        + "same lock again, such as finishing a stream whose onTermination takes it. Do that after withLock returns."
    }
    if reason.contains("Duplicate values for key") {
      return "Two equal keys went into Dictionary(uniqueKeysWithValues:), which traps on them: build the "
        + "dictionary with a loop, or Dictionary(_:uniquingKeysWith:), and say which one wins."
    }
    if reason.contains("Unexpectedly found nil") {
      return "A force unwrap (`!`) of nil is the cause: unwrap with `guard let` or `if let` and handle the nil."
    }
    if reason.contains("'try!'") {
      return "A `try!` whose call threw is the cause: use `try` and handle the error, or throw it."
    }
    if reason.localizedCaseInsensitiveContains("arithmetic overflow") {
      return "An arithmetic overflow is the cause: an integer `+`, `-` or `*` went past its type's range, which "
        + "Swift traps on. Check the values that reach it (a count or an id from the data, a sum of many)."
    }
    if reason.localizedCaseInsensitiveContains("division by zero") {
      return "A division by zero is the cause: an integer `/` or `%` by 0, which Swift traps on. Check the divisor."
    }
    if reason.contains("Index out of range") || reason.contains("out of bounds") {
      return "An index past the end of an array or string is the cause: check it against `count`, "
        + "or use `first`, `last` or `indices`."
    }
    if reason.contains("not in the registry") || reason.contains("Session invalidated") {
      return "URLSession's own bookkeeping trapped: a request ran on a session that was already invalidated, "
        + "usually code that went on after its test gave up on it, such as a loop that never checks "
        + "`Task.isCancelled`. Let cancellation end the work."
    }
    if reason.contains("Bad pointer dereference") || reason.contains("Segmentation fault") {
      return "A bad memory access is the cause: in Swift code of your own, usually an unsafe pointer or an "
        + "`unowned` reference used after its object was gone; the backtrace names the function."
    }
    if reason.contains("Precondition failed") || reason.contains("Assertion failed") {
      return "A failed precondition or assertion is the cause: its message, above, says what did not hold."
    }
    return "A force unwrap, try! or fatalError is the usual cause."
  }

  /// The report as lines of text.
  func lines(style: Style) -> [String] {
    var lines = [style.bold("Stage \(stage.number) · \(stage.name)") + "   Lessons/\(stage.folder)", ""]
    if result.allPassed {
      // The stage's suite alone: `swift test --filter LessonNN` also runs the learner's own tests, in YourTests.
      lines.append(style.green("✔ Every test in Tests/\(stage.folder) passes: all \(result.total) of them."))
      return lines
    }
    if let reason = result.brokenReason {
      lines.append(style.red("✘ The suite \(reason)."))
      lines += hangLines(style: style)
      let log = SwiftPackage.logPath(of: "\(stage.lessonModule)Tests")
      if case .hung = result.ending {
        lines.append(
          "  An await that never returns is the usual cause: a continuation never resumed, a stream never "
            + "finished, or a wait on a real clock. Output: \(log)")
      } else {
        lines += crashLines(style: style)
        lines.append("  \(Self.crashCause(result.brokenReason ?? "")) Output: \(log)")
      }
      lines.append("")
    }
    for section in sections {
      lines.append(style.bold(section.task.heading) + "   " + style.dim(section.task.section(in: stage)))
      lines += Self.failureLines(section.failures, style: style)
      if !section.waiting.isEmpty {
        lines.append(
          "  " + style.dim("… \(section.waiting.count) test(s) skipped until this task is done: ")
            + SuiteResult.list(section.waiting))
      }
      lines.append("")
    }
    if !unassigned.isEmpty {
      lines.append(style.bold("Failures that name no task"))
      lines += Self.failureLines(unassigned, style: style)
      lines.append("")
    }
    if !unassignedSkips.isEmpty {
      lines.append(
        style.dim("\(unassignedSkips.count) more test(s) skipped: ") + SuiteResult.list(unassignedSkips))
      lines.append("")
    }
    lines.append(summary(style: style))
    return lines
  }

  /// For a hung run: each test that never ended, with its task when known, and
  /// the console's lines about leaked continuations, which name the function at fault.
  func hangLines(style: Style) -> [String] {
    guard case .hung = result.ending else { return [] }
    let shown = 5
    var lines = unfinished.prefix(shown).map { test, task in
      "  " + style.red("✘") + " \(test) never ended"
        + (task.map { ", in Task \($0.number) \"\($0.title)\": \($0.section(in: stage))" } ?? "")
    }
    if unfinished.count > shown { lines.append("  … and \(unfinished.count - shown) more") }
    lines += result.clues.map { "  " + style.yellow("The log says: ") + $0 }
    return lines
  }

  /// For a crashed run: the tests it happened in, with their task when known.
  func crashLines(style: Style) -> [String] {
    guard case .crashed = result.ending else { return [] }
    let shown = 5
    var lines = crashed.prefix(shown).map { test, task in
      "  " + style.red("✘") + " \(test) crashed"
        + (task.map { ", in Task \($0.number) \"\($0.title)\": \($0.section(in: stage))" } ?? "")
    }
    if crashed.count > shown { lines.append("  … and \(crashed.count - shown) more") }
    return lines
  }

  /// The task whose code a hang is in, when the runtime names the function that
  /// leaked its continuation (`SWIFT TASK CONTINUATION MISUSE: value(for:operation:)
  /// leaked …`) and a task's section names that function: a coalescer that never
  /// resumes is the coalescer's task, whichever task's test stopped on it.
  var leakingTask: StageTask? {
    let functions = result.clues.compactMap(Self.leakedFunction)
    return functions.lazy.compactMap { function in tasks.first { $0.mentions(function: function) } }.first
  }

  /// `value(for:operation:)` from a `SWIFT TASK CONTINUATION MISUSE: value(for:operation:) leaked …` line.
  static func leakedFunction(_ clue: String) -> String? {
    guard let start = clue.range(of: "MISUSE: "),
      let end = clue.range(of: " leaked", range: start.upperBound..<clue.endIndex)
    else { return nil }
    let name = clue[start.upperBound..<end.lowerBound].trimmingCharacters(in: .whitespaces)
    return name.isEmpty ? nil : name
  }

  /// The task a crash happened in: the task that writes the innermost file of
  /// the backtrace that the doc gives to one task, else the first crashed test's
  /// that has one. A test that checks Task 1's code before its own (a guard)
  /// crashes in Task 1's file, whatever task the test belongs to.
  var crashedTask: StageTask? {
    let byFile = result.crashFiles.lazy.compactMap { file in self.tasks.first { $0.files.contains(file) } }.first
    return byFile ?? crashed.lazy.compactMap(\.task).first
  }

  /// One line per distinct message: tests that fail with the same words share a line.
  ///
  /// Under it, indented, each distinct piece of evidence once, up to
  /// `evidenceShown`; when the tests sharing the line did not all give it, it
  /// names those that did.
  static func failureLines(_ failures: [Failure], style: Style) -> [String] {
    var details: [String] = []
    var tests: [String: [String]] = [:]
    var evidence: [String: [(line: String, tests: [String])]] = [:]
    for failure in failures {
      if tests[failure.detail] == nil { details.append(failure.detail) }
      if tests[failure.detail]?.contains(failure.test) != true {
        tests[failure.detail, default: []].append(failure.test)
      }
      for line in failure.evidence {
        var given = evidence[failure.detail] ?? []
        if let index = given.firstIndex(where: { $0.line == line }) {
          if !given[index].tests.contains(failure.test) { given[index].tests.append(failure.test) }
        } else {
          given.append((line, [failure.test]))
        }
        evidence[failure.detail] = given
      }
    }
    return details.flatMap { detail in
      let sharing = tests[detail] ?? []
      let given = evidence[detail] ?? []
      var lines = ["  " + style.red("✘") + " \(SuiteResult.list(sharing)): \(detail)"]
      lines += given.prefix(evidenceShown).map { line, tests in
        "    " + (tests.count == sharing.count ? "" : "\(SuiteResult.list(tests)): ") + line
      }
      if given.count > evidenceShown { lines.append("    " + style.dim("… and \(given.count - evidenceShown) more")) }
      return lines
    }
  }

  /// How many pieces of evidence a failure line shows at most.
  static let evidenceShown = 3

  /// "3 passed, 5 failed, 2 skipped (10 tests)", and for a run that did not
  /// finish, how many tests never ended and never ran.
  ///
  /// The tally counts tests; the ✘ lines above are messages, one per distinct
  /// message in each task. When the two numbers differ, the summary says why, so
  /// "13 failed" beside 15 ✘ lines does not read as a miscount.
  func summary(style: Style) -> String {
    let tally = result.tally { part, text in
      switch part {
      case .passed: style.green(text)
      case .failed, .unfinished: style.red(text)
      case .skipped: style.yellow(text)
      }
    }
    let messages =
      sections.map { Set($0.failures.map(\.detail)).count }.reduce(0, +) + Set(unassigned.map(\.detail)).count
    guard messages > 0, messages != result.failed else { return tally }
    return tally
      + style.dim(
        "; \(messages) ✘ line(s) above, one per distinct message: a test can fail with several, "
          + "a parameterized test once per case, and tests with the same message share one")
  }
}
