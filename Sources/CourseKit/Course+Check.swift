import Foundation

/// `course check [NN]`: one stage's failures, grouped by task.
extension Course {
  func check(_ number: String?) throws -> Int32 {
    guard let (stage, result) = try lessonToWorkOn(number) else {
      say(style.green("Every stage is solved.") + " `\(invocation) diff NN` compares a stage with its solution.")
      return 0
    }
    let report = report(stage, result)
    say(report.lines(style: style).joined(separator: "\n"))
    let testsCatchEveryFault = try checkYourTests(stage) ?? true
    say("")
    say(nextStep(report, testsDone: testsCatchEveryFault))
    tellClassroom(.check(report, testsDone: testsCatchEveryFault))
    return result.allPassed && testsCatchEveryFault ? 0 : 1
  }

  /// Builds, then runs the lesson suite of stage `number`, or of each stage in
  /// turn until one is not solved; `nil` when every stage is.
  ///
  /// - Throws: `CourseError.usage` for a stage that does not exist.
  func lessonToWorkOn(_ number: String?) throws -> (Stage, SuiteResult)? {
    let stages = try number.map { [try package.workspace.stage(numbered: $0)] } ?? package.workspace.stages()
    try build(only: number == nil ? nil : stages.first)
    for stage in stages {
      let result = try runLesson(stage)
      if number != nil || !result.allPassed || !testsAreComplete(stage) { return (stage, result) }
    }
    return nil
  }

  /// Whether the stage's "Write the test" tasks are done, as the last fault check found; true when it has none.
  func testsAreComplete(_ stage: Stage) -> Bool {
    guard let list = faultList(of: stage), !list.tasks.isEmpty else { return true }
    return FaultLedger(workspace: package.workspace, stage: stage).isComplete
  }

  /// The stage `number`, or the first one whose lesson suite does not pass; `nil` when every stage does.
  func stageToWorkOn(_ number: String?) throws -> Stage? {
    if let number { return try package.workspace.stage(numbered: number) }
    return try lessonToWorkOn(nil)?.0
  }

  /// Runs a stage's lesson suite, saying so on a terminal.
  func runLesson(_ stage: Stage) throws -> SuiteResult {
    progressLine("Running \(stage.lessonModule)'s tests…")
    defer { progressLine(nil) }
    return try package.runSuite("\(stage.lessonModule)Tests")
  }

  /// A run of a stage's lesson, grouped by the tasks of its doc.
  func report(_ stage: Stage, _ result: SuiteResult) -> StageReport {
    StageReport(stage: stage, tasks: package.workspace.tasks(of: stage), result: result)
  }

  /// What to do next about a stage that `report` shows: its first task, where to read, what helps.
  /// `watching` leaves out the advice to run `course watch`, which is already running.
  /// `testsDone` is false when the learner's tests of the stage's "Write the test"
  /// tasks still fail or miss faults: a passing suite is then not the end of the stage.
  func nextStep(_ report: StageReport, watching: Bool = false, testsDone: Bool = true) -> String {
    let stage = report.stage
    if report.result.allPassed, !testsDone {
      let tasks = faultList(of: stage)?.tasks.map { "\($0.number)" } ?? []
      let named = tasks.count == 1 ? "Task \(tasks[0])" : "Tasks \(tasks.joined(separator: " and "))"
      return style.bold("Next:") + " every test of the suite passes; your own tests of \(named) "
        + "(Lessons/\(stage.folder)/\(FaultCheck.testsFolder)) are not done yet: the lines above say what each "
        + "still misses. `\(invocation) hint \(stage.number) \(tasks.first ?? "")` gives one hint at a time."
    }
    if report.result.allPassed {
      let next = package.workspace.stages().first { $0 > stage }
      // A stage whose learners design their own layer (the capstone) compares designs once it passes.
      let designs = package.workspace.exists(stage.designsDoc) ? " Compare your design: read \(stage.designsDoc)." : ""
      return style.green("Stage \(stage.number) is solved.") + designs
        + (next.map {
          " Next: stage \($0.number), \($0.name): read \($0.doc), then `\(invocation) check \($0.number)`."
        }
          ?? " \(Self.lastStage(of: package.workspace.stages().count))")
    }
    if let step = hangStep(report) ?? crashStep(report) { return step }
    guard let task = report.firstTask else {
      if report.result.brokenReason != nil {
        return style.bold("Next:") + " open \(SwiftPackage.logPath(of: "\(stage.lessonModule)Tests")): the backtrace "
          + "after its \"Fatal error\", \"Swift runtime failure\" or \"Program crashed\" line names the function and line that crashed."
      }
      return style.bold("Next:") + " read \(stage.doc) and fix the failures above."
    }
    let hint = "  Stuck? `\(invocation) hint \(stage.number) \(task.number)` gives one hint at a time"
    return style.bold("Next:") + " Task \(task.number), \"\(task.title)\": read \(task.section(in: stage))\n"
      + hint + (watching ? "." : "; `\(invocation) watch \(stage.number)` reruns the tests as you save.")
      + (watching ? "" : quickerLoop(stage))
  }

  /// Under Swift Build, `swift run` costs about 2 s before course starts: the
  /// launcher at the package root skips it (Docs/Commands.md), so a learner who
  /// typed `swift run course check` hears of it.
  func quickerLoop(_ stage: Stage) -> String {
    guard invocation == Launcher.swiftRun, package.buildSystem.kind == .swiftbuild,
      FileManager.default.isExecutableFile(atPath: package.workspace.url("course").path)
    else { return "" }
    let command = (["./course", "check", stage.number] + package.buildSystem.options).joined(separator: " ")
    return "\n" + style.dim("  Quicker: `\(command)` skips the 2 s `swift run` spends before course starts.")
  }

  /// "That was the last of the 6 stages in this package.": more may come in a later version of the course.
  static func lastStage(of count: Int) -> String {
    count == 1
      ? "That was the only stage in this package." : "That was the last of the \(count) stages in this package."
  }

  /// What to do about a crashed suite whose crash is in a test that names its
  /// task: that task, and the usual cause of the trap. `nil` otherwise.
  func crashStep(_ report: StageReport) -> String? {
    guard case .crashed(let reason) = report.result.ending else { return nil }
    let stage = report.stage
    let log = SwiftPackage.logPath(of: "\(stage.lessonModule)Tests")
    // A backtrace that runs through none of the learner's files is not theirs to fix
    // by a task: name where it ran instead of blaming the test's task.
    let yours = Set(
      package.workspace.swiftFiles(under: "Lessons/\(stage.folder)").map {
        $0.split(separator: "/").last.map(String.init) ?? $0
      })
    let frames = report.result.crashFiles
    if !frames.isEmpty, !yours.isEmpty, !frames.contains(where: yours.contains) {
      return style.bold("Next:") + " the crash's backtrace runs through none of your files in Lessons/\(stage.folder) "
        + "(it runs through \(frames.prefix(3).joined(separator: ", "))), so no task of yours is named for it. "
        + "\(StageReport.crashCause(reason))\n  Run the check again; if it crashes again, show \(log) to your instructor."
    }
    guard let task = report.crashedTask else { return nil }
    return style.bold("Next:") + " the crash is in Task \(task.number) \"\(task.title)\": read "
      + "\(task.section(in: stage)). \(StageReport.crashCause(reason))\n  The backtrace in "
      + "\(log) names the function and line."
  }

  /// What to do about a hung suite: the tests that never ended and their task,
  /// and a rerun that stops at the time limit, never a bare `swift test`: the
  /// suites' one-minute time limit reports the hung test, but cannot end an
  /// await that ignores cancellation, so the run goes on (measured with Swift
  /// 6.3.1: "Time limit was exceeded" at 60 s, and no end). `nil` when the suite did not hang.
  func hangStep(_ report: StageReport) -> String? {
    guard case .hung(_, let limit) = report.result.ending else { return nil }
    let stage = report.stage
    let rerun =
      "  `\(invocation) check \(stage.number)` runs the suite again and stops it after \(Int(limit)) s; "
      + "a bare `swift test` reports a hung test after the suites' one-minute time limit, "
      + "but does not end while its await ignores cancellation."
    let tests = report.unfinished.map(\.test)
    guard !tests.isEmpty else {
      // No test started: the test runner was still planning the run, and a test's
      // condition trait or arguments called code that never returned. The stages'
      // own conditions are bounded (CourseClock.boundedCheck), so this is rare.
      return style.bold("Next:") + " the suite hung before its first test started, while the test runner was "
        + "deciding what to run: a test's condition or arguments called code that never returned. Find the "
        + "await that never returns in the code of your first unfinished task.\n" + rerun
    }
    let awaiting =
      "find the await that never returns in your code that \(SuiteResult.list(tests)) \(tests.count == 1 ? "calls" : "call")"
    let clue =
      report.result.clues.isEmpty ? "" : " (the log line above names the function that leaked its continuation)"
    if let task = report.leakingTask,
      let function = report.result.clues.lazy.compactMap(StageReport.leakedFunction).first
    {
      // The runtime named the function that never resumed: its task, not the first task whose test waited on it.
      return style.bold("Next:") + " \(function) leaked its continuation (the log line above), so an await "
        + "in it never returns; \(SuiteResult.list(tests)) waited on it. It is Task \(task.number) "
        + "\"\(task.title)\": read \(task.section(in: stage))\n" + rerun
    }
    if let task = report.unfinished.lazy.compactMap(\.task).first {
      return style.bold("Next:") + " \(awaiting)\(clue), Task \(task.number) \"\(task.title)\": "
        + "read \(task.section(in: stage))\n" + rerun
    }
    return style.bold("Next:") + " \(awaiting)\(clue).\n" + rerun
  }
}
