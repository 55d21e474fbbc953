import Foundation

/// `course` and `course status`: progress through the stages and the next step.
extension Course {
  func status() throws -> Int32 {
    let stages = package.workspace.stages()
    say(style.bold("Repository & Data Source patterns in Swift") + " · \(stages.count) stage(s)")
    try build()
    var rows: [(Stage, StageProgress)] = []
    for stage in stages {
      progressLine("Running \(stage.lessonModule)'s tests…")
      let result = try package.runSuite("\(stage.lessonModule)Tests")
      rows.append((stage, StageProgress(result: result, edited: try package.lessonHasEdits(stage))))
    }
    progressLine(nil)
    say("")
    for (stage, progress) in rows { say(row(stage, progress)) }
    let solved = rows.filter { $0.1.isSolved }.count
    say("")
    say(Self.progressBar(solved: solved, total: rows.count) + " \(solved) of \(rows.count) solved")
    say("")
    say(nextStep(rows))
    return 0
  }

  private func row(_ stage: Stage, _ progress: StageProgress) -> String {
    let name = "\(stage.number)  \(stage.name)".padding(toLength: 30, withPad: " ", startingAt: 0)
    switch progress {
    case .solved(let total): return "  \(name) \(style.green("✔ solved"))        \(total)/\(total) tests pass"
    case .inProgress(let passed, let total):
      return "  \(name) \(style.yellow("● in progress"))   \(passed)/\(total) tests pass"
    case .notStarted(let passed, let total):
      return "  \(name) \(style.dim("○ not started"))   \(passed)/\(total) tests pass"
    case .broken(let reason): return "  \(name) \(style.red("✘ broken"))        \(reason)"
    }
  }

  static func progressBar(solved: Int, total: Int, width: Int = 28) -> String {
    let filled = total == 0 ? 0 : width * solved / total
    return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
  }

  private func nextStep(_ rows: [(Stage, StageProgress)]) -> String {
    guard let (stage, progress) = rows.first(where: { !$0.1.isSolved }) else {
      return style.bold("Every stage is solved.")
        + " Compare your code with Solutions/, or run `swift test --skip Lesson` to see every reference pass."
    }
    let run = "swift test --filter \(stage.lessonModule)"
    if case .broken = progress {
      return style.bold("Next:") + " \(stage.lessonModule)'s tests crashed or hung. Run `\(run)` and look at the "
        + "last test that started: a force unwrap, fatalError or an await that never returns is the usual cause."
    }
    return style.bold("Next:") + " read \(stage.doc), then run\n    \(run)\n"
      + "  and fix what the first failure names. Compare with `swift test --filter \(stage.solutionModule)` when stuck."
  }
}
