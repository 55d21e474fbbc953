import Foundation

/// `course hint [NN] [TASK]`: graded hints, one level per call.
extension Course {
  func hint(stage number: String?, task requested: Int?) throws -> Int32 {
    let stage: Stage
    let taskNumber: Int
    if let number, let requested {
      stage = try package.workspace.stage(numbered: number)
      taskNumber = requested
    } else {
      guard let (found, result) = try lessonToWorkOn(number) else {
        say(
          style.green("Every stage is solved;") + " there is nothing to hint. `\(invocation) hint NN TASK` "
            + "shows a task's hints all the same.")
        return 0
      }
      stage = found
      // A hanging suite needs no hint about a task: it needs the await that never returns.
      if requested == nil, let step = hangStep(report(found, result)) {
        say(style.red("Stage \(found.number)'s suite hangs, so no task's hint fits yet."))
        say(step)
        return 1
      }
      if let requested {
        taskNumber = requested
      } else if let task = report(found, result).firstTask {
        taskNumber = task.number
      } else {
        say(
          result.allPassed
            ? "Stage \(stage.number) passes: there is nothing to hint. Name a task to see its hints: "
              + "`\(invocation) hint \(stage.number) 1`."
            : "No failure of stage \(stage.number) names a task. `\(invocation) check \(stage.number)` shows them.")
        return result.allPassed ? 0 : 1
      }
    }
    let path = HintsFile.path(of: stage)
    guard let file = HintsFile(of: stage, in: package.workspace) else {
      say(style.red("\(path) is missing, so there are no hints for stage \(stage.number)."))
      return 1
    }
    let hints = file.hints(forTask: taskNumber)
    let title =
      package.workspace.tasks(of: stage).first { $0.number == taskNumber }?.title
      ?? file.entries.first { $0.task.number == taskNumber }?.task.title
    guard !hints.isEmpty, let title else {
      let known = file.entries.map { String($0.task.number) }.joined(separator: ", ")
      say(style.red("Stage \(stage.number) has no hints for Task \(taskNumber).") + " Tasks with hints: \(known).")
      return 1
    }
    var ledger = HintLedger(of: package.workspace)
    let seen = ledger.count(stage: stage, task: taskNumber)
    let shown = min(seen + 1, hints.count)
    let task = StageTask(number: taskNumber, title: title)
    say(
      style.bold("Stage \(stage.number), \(task.heading)") + " · hint \(shown) of \(hints.count)"
        + "   " + style.dim(task.section(in: stage)))
    say("")
    say(hints[shown - 1])
    say("")
    if seen >= hints.count {
      say(
        style.yellow("That was the last hint for Task \(taskNumber); you have seen all \(hints.count).")
          + " Compare your code with the solution: `\(invocation) diff \(stage.number)`.")
    } else if shown < hints.count {
      say(
        style.dim(
          "Try again with this one. `\(invocation) hint \(stage.number) \(taskNumber)` shows the next "
            + "(\(hints.count - shown) more)."))
    } else {
      say(
        style.dim(
          "That was the last hint. If it is still not enough, `\(invocation) diff \(stage.number)` shows the "
            + "solution."))
    }
    ledger.record(shown, stage: stage, task: taskNumber)
    try ledger.save(in: package.workspace)
    tellClassroom(.hint(stage: stage.number, task: taskNumber))
    return 0
  }
}
