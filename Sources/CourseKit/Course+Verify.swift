import Foundation

/// `course verify`: the stage contract, checked for every stage.
extension Course {
  /// - Parameter number: The one stage to check (`4` or `04`); `nil` for every stage.
  func verify(only number: String? = nil) throws -> Int32 {
    let all = package.workspace.stages()
    let stages = try number.map { [try package.workspace.stage(numbered: $0)] } ?? all
    say(style.bold("Checking the stage contract") + " for \(stages.count) stage(s)")
    try build(always: true)
    var broken: [Stage] = []
    for stage in stages {
      let workspace = package.workspace
      let index = all.firstIndex(of: stage) ?? 0
      let previous = index > 0 ? all[index - 1] : nil
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
          + DecisionsCheck.checks(for: stage, in: workspace) + DocLengthCheck.checks(for: stage, in: workspace)
          + (try faultChecks(stage)),
        lesson: lesson, solution: solution)
      say(style.bold("Stage \(stage.folder)"))
      for check in verdict.checks {
        say("  " + (check.ok ? style.green("✔") : style.red("✘")) + " " + check.text)
      }
      if !verdict.keepsContract { broken.append(stage) }
    }
    let links = LinkCheck.checks(in: package.workspace)
    say(style.bold("Links"))
    for check in links {
      say("  " + (check.ok ? style.green("✔") : style.red("✘")) + " " + check.text)
    }
    let brokenLinks = links.filter { !$0.ok }.count
    say("")
    if stages.isEmpty {
      say(style.red("No stages found in Lessons/ or Solutions/."))
      return 1
    }
    if broken.isEmpty && brokenLinks == 0 {
      say(style.green("All \(stages.count) stage(s) keep the contract."))
      return 0
    }
    if !broken.isEmpty {
      say(style.red("\(broken.count) stage(s) break the contract: \(broken.map(\.folder).joined(separator: ", "))"))
    }
    if brokenLinks > 0 {
      say(style.red("\(brokenLinks) link(s) in README.md, Docs/ or Faults/ do not resolve; see Links above."))
    }
    return 1
  }

  /// Contract item 11 for a stage with "Write the test" tasks: the reference
  /// answers pass on the solution and catch every fault; the lesson's
  /// placeholders fail and name their tasks; every task has three faults or more.
  func faultChecks(_ stage: Stage) throws -> [StageVerdict.Check] {
    guard let list = faultList(of: stage) else {
      // A course with a Faults/ folder has test tasks from stage 02 on (contract item 11).
      guard package.workspace.exists("Faults"), let number = Int(stage.number), number >= 2 else { return [] }
      return [
        StageVerdict.Check(
          ok: false,
          text: "\(FaultList.path(of: stage)) is missing: from stage 02 on, every stage has a \"Write the test\" "
            + "task, its faults in that file and its tests in Lessons/ and Solutions/\(stage.folder)/YourTests")
      ]
    }
    guard !list.tasks.isEmpty else {
      return [
        StageVerdict.Check(ok: false, text: "\(FaultList.path(of: stage)) has no `## Task N: …` section")
      ]
    }
    let path = FaultList.path(of: stage)
    var checks = list.problems.map { StageVerdict.Check(ok: false, text: "\(path): \($0)") }
    for task in list.tasks {
      if task.faults.count < 3 {
        checks.append(
          StageVerdict.Check(
            ok: false,
            text: "\(path): Task \(task.number) has \(task.faults.count) fault(s); a test task needs three or more"))
      }
      for role in [FaultCheck.Role.learner, .reference] {
        for file in task.testFiles where !package.workspace.exists("\(role.folder(of: stage))/\(file)") {
          checks.append(
            StageVerdict.Check(
              ok: false, text: "Task \(task.number)'s tests \(role.folder(of: stage))/\(file) are missing"))
        }
      }
    }
    let check = faultCheck(stage, list)
    progressLine("Checking \(stage.folder)'s test tasks against \(list.faults.count) faults…")
    defer { progressLine(nil) }
    do {
      try check.prepare()
    } catch {
      return checks + [StageVerdict.Check(ok: false, text: "\(path) does not fit the solution: \(error)")]
    }
    if let errors = try check.build() {
      return checks + [
        StageVerdict.Check(
          ok: false,
          text: "the fault check's scratch package does not build: " + errors.prefix(5).joined(separator: "; "))
      ]
    }
    let reference = try check.outcomes(.reference)
    let lesson = try check.outcomes(.learner)
    for (answer, placeholder) in zip(reference, lesson) {
      let task = answer.task
      let caught = "\(answer.caught.count) of \(task.faults.count) faults"
      if answer.isComplete {
        checks.append(
          StageVerdict.Check(ok: true, text: "Task \(task.number)'s reference tests pass and catch \(caught)"))
      } else {
        let why =
          answer.failingOnReference.isEmpty
          ? "catch only \(caught); missed: " + answer.missed.map(\.name).joined(separator: "; ")
          : "fail against the solution: "
            + answer.failingOnReference.map {
              "\($0.test)\($0.runs > 1 ? " (on \($0.failedRuns) of \($0.runs) runs)" : ""): \($0.message)"
            }
            .joined(separator: "; ")
        checks.append(StageVerdict.Check(ok: false, text: "Task \(task.number)'s reference tests \(why)"))
      }
      checks.append(
        placeholder.isPlaceholder
          && placeholder.failingOnReference.allSatisfy { $0.message.contains("Task \(task.number)") }
          ? StageVerdict.Check(ok: true, text: "Task \(task.number)'s placeholder fails and names the task")
          : StageVerdict.Check(
            ok: false,
            text: "Task \(task.number)'s placeholder in \(FaultCheck.Role.learner.folder(of: stage)) should fail "
              + "against the solution with testNotWrittenYet(\"Task \(task.number)\", …)"))
    }
    return checks
  }
}
