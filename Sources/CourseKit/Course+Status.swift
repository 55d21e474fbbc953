import Foundation

/// `course` and `course status`: progress through the stages and the next step.
extension Course {
  func status() throws -> Int32 {
    let stages = package.workspace.stages()
    say(style.bold("Repository & Data Source patterns in Swift") + " · \(stages.count) stage(s)")
    if !package.hasBeenBuilt, try stages.allSatisfy({ try package.lessonHasEdits($0) == false }) {
      return try firstRun(stages)
    }
    try build()
    say("")
    let hints = HintLedger(of: package.workspace)
    // Each row as soon as its suite has run: the first is on screen within a second once the package is built.
    var rows: [(Stage, StageProgress)] = []
    var firstUnsolved: StageReport?
    for stage in stages {
      let result = try runLesson(stage)
      var progress = StageProgress(result: result, edited: try package.lessonHasEdits(stage))
      var note = ""
      if faultList(of: stage).map({ !$0.tasks.isEmpty }) == true {
        let ledger = FaultLedger(workspace: package.workspace, stage: stage)
        // Solved means the code passes and the learner's tests catch every fault.
        if !ledger.isComplete, case .solved(let total) = progress {
          progress = .inProgress(passed: total, total: total)
          note = style.dim(
            ledger.isCurrent
              ? " · your tests miss faults" : " · your tests: run `\(invocation) check \(stage.number)`")
        }
      }
      rows.append((stage, progress))
      if firstUnsolved == nil, !progress.isSolved { firstUnsolved = report(stage, result) }
      say(row(stage, progress, hints: hints.total(stage: stage)) + note)
    }
    let solved = rows.filter { $0.1.isSolved }.count
    say("")
    say(Self.progressBar(solved: solved, total: rows.count) + " \(solved) of \(rows.count) solved")
    say("")
    say(nextStep(rows, firstUnsolved))
    tellClassroom(.status(solved: rows.filter { $0.1.isSolved }.map(\.0.number), firstUnsolved: firstUnsolved))
    return 0
  }

  /// Where a fresh clone's tests build while the learner reads the first stage's doc.
  static let backgroundBuildLog = ".build/course/first-build.log"

  /// A clone with nothing built whose lessons git sees unchanged: a fresh
  /// clone, or one whose solutions were committed and whose `.build` is gone.
  ///
  /// No suite has run, so no row claims a state: the table is on screen once
  /// `course` itself is built, and the course's tests then build in the
  /// background while the learner reads the first stage's doc. A later `swift`
  /// command in the clone waits for that build (SwiftPM says so) and finds it
  /// done; `swift run course` then shows each stage's progress.
  /// `COURSE_BACKGROUND_BUILD=0` leaves the build to the first command that needs it.
  private func firstRun(_ stages: [Stage]) throws -> Int32 {
    say("")
    for stage in stages {
      let name = "\(stage.number)  \(stage.name)".padding(toLength: 30, withPad: " ", startingAt: 0)
      say("  \(name) \(style.dim("· not run yet"))")
    }
    say("")
    let log = package.workspace.url(Self.backgroundBuildLog)
    if ProcessInfo.processInfo.environment["COURSE_BACKGROUND_BUILD"] == "0" {
      say("No suite has run here yet. The first command that runs tests builds the course: a few minutes, once.")
    } else {
      try package.runner.start(package.buildCommand, in: package.workspace.root, log: log)
      say(
        "No suite has run here yet. The course's tests are building in the background (a few minutes, once; "
          + "log: \(Self.backgroundBuildLog)); a `swift` command started meanwhile waits for that build, and says so.")
    }
    say("")
    if let first = stages.first {
      say(
        style.bold("Next:") + " starting the course? Read \(first.doc), then run\n"
          + "    \(invocation) check \(first.number)\n"
          + "  and fix what the first failure names. Once the build is done, "
          + "`\(invocation)` shows each stage's progress.")
    }
    return 0
  }

  private func row(_ stage: Stage, _ progress: StageProgress, hints: Int) -> String {
    let name = "\(stage.number)  \(stage.name)".padding(toLength: 30, withPad: " ", startingAt: 0)
    let used = hints == 0 ? "" : style.dim(hints == 1 ? "   1 hint used" : "   \(hints) hints used")
    switch progress {
    case .solved(let total): return "  \(name) \(style.green("✔ solved"))        \(total)/\(total) tests pass\(used)"
    case .inProgress(let passed, let total):
      return "  \(name) \(style.yellow("● in progress"))   \(passed)/\(total) tests pass\(used)"
    case .notStarted(let passed, let total):
      return "  \(name) \(style.dim("○ not started"))   \(passed)/\(total) tests pass\(used)"
    case .broken(let reason, let passed, let total):
      return "  \(name) \(style.red("✘ broken"))        \(passed)/\(total) tests pass · \(reason)\(used)"
    }
  }

  static func progressBar(solved: Int, total: Int, width: Int = 28) -> String {
    let filled = total == 0 ? 0 : width * solved / total
    return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
  }

  private func nextStep(_ rows: [(Stage, StageProgress)], _ report: StageReport?) -> String {
    guard let (stage, progress) = rows.first(where: { !$0.1.isSolved }) else {
      return style.bold("Every stage is solved.")
        + " Compare your code with Solutions/, or run `swift test --skip Lesson` to see every reference pass."
    }
    if let report, let step = hangStep(report) ?? crashStep(report) { return step }
    if case .broken(let reason, _, _) = progress {
      return style.bold("Next:")
        + " \(stage.lessonModule)'s tests crashed. Run `\(invocation) check \(stage.number)` "
        + "to see where. \(StageReport.crashCause(reason))"
    }
    guard let task = report?.firstTask else {
      return style.bold("Next:") + " read \(stage.doc), then run\n    \(invocation) check \(stage.number)\n"
        + "  and fix what the first failure names."
    }
    return style.bold("Next:") + " stage \(stage.number), Task \(task.number) \"\(task.title)\".\n"
      + "  Read \(task.section(in: stage)), then run\n"
      + "    \(invocation) check \(stage.number)     (or `\(invocation) watch \(stage.number)` to rerun on every save)\n"
      + "  Stuck? `\(invocation) hint \(stage.number) \(task.number)` gives one hint at a time."
  }
}
