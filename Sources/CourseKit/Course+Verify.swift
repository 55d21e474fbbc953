import Foundation

/// `course verify`: the stage contract, checked for every stage.
extension Course {
  func verify() throws -> Int32 {
    let stages = package.workspace.stages()
    say(style.bold("Checking the stage contract") + " for \(stages.count) stage(s)")
    try build(always: true)
    var broken: [Stage] = []
    for (index, stage) in stages.enumerated() {
      let workspace = package.workspace
      let previous = index > 0 ? stages[index - 1] : nil
      progressLine("Running \(stage.lessonModule) and \(stage.solutionModule)…")
      let lesson = try package.runSuite("\(stage.lessonModule)Tests")
      let solution = try package.runSuite("\(stage.solutionModule)Tests")
      progressLine(nil)
      let verdict = StageVerdict.judge(
        stage: stage,
        missingFiles: workspace.requiredFiles(of: stage).filter { !$0.exists }.map(\.path),
        fatalErrorFiles: workspace.lessonFilesCallingFatalError(of: stage),
        sourceChecks: ContinuityCheck.checks(for: stage, after: previous, in: workspace)
          + DocNamesCheck.checks(for: stage, in: workspace) + HintsCheck.checks(for: stage, in: workspace)
          + DecisionsCheck.checks(for: stage, in: workspace),
        lesson: lesson, solution: solution)
      say(style.bold("Stage \(stage.folder)"))
      for check in verdict.checks {
        say("  " + (check.ok ? style.green("✔") : style.red("✘")) + " " + check.text)
      }
      if !verdict.keepsContract { broken.append(stage) }
    }
    say("")
    if stages.isEmpty {
      say(style.red("No stages found in Lessons/ or Solutions/."))
      return 1
    }
    if broken.isEmpty {
      say(style.green("All \(stages.count) stage(s) keep the contract."))
      return 0
    }
    say(style.red("\(broken.count) stage(s) break the contract: \(broken.map(\.folder).joined(separator: ", "))"))
    return 1
  }
}
