import Foundation

/// The "Write the test" tasks: `course check` runs the learner's tests against
/// the reference and its faults, and `course status` counts a stage solved only
/// once they catch every fault.
extension Course {
  /// The stage's fault list, or `nil` when it has no "Write the test" tasks.
  func faultList(of stage: Stage) -> FaultList? {
    guard let text = try? String(contentsOf: package.workspace.url(FaultList.path(of: stage)), encoding: .utf8)
    else { return nil }
    return FaultList(markdown: text)
  }

  /// A fault check of `stage` as this course runs it.
  func faultCheck(_ stage: Stage, _ list: FaultList) -> FaultCheck {
    FaultCheck(
      workspace: package.workspace, runner: package.runner, stage: stage, list: list,
      buildSystem: package.buildSystem)
  }

  /// Checks the learner's tests of `stage` and prints one block per task.
  ///
  /// - Returns: Whether every task's tests pass on the reference and catch every
  ///   fault; `nil` when the stage has no "Write the test" tasks.
  func checkYourTests(_ stage: Stage) throws -> Bool? {
    guard let list = faultList(of: stage), !list.tasks.isEmpty else { return nil }
    let check = faultCheck(stage, list)
    say("")
    let tasks = list.tasks.map { "\($0.number)" }.joined(separator: ", ")
    say(
      style.bold("Your tests")
        + " (Task\(list.tasks.count == 1 ? "" : "s") \(tasks)), against the reference solution and "
        + "\(list.faults.count) faults:")
    if !package.workspace.exists("\(check.scratch)/.build") {
      say(
        style.dim(
          "  The first check of a stage builds a scratch copy of its solution under \(check.scratch): "
            + "a minute or two. Later checks rebuild only your tests."))
    }
    let outcomes: [FaultCheck.TaskOutcome]
    do {
      progressLine("Building your tests against the reference…")
      let inputs = try check.prepare()
      // After an edit to the lesson alone, nothing the check builds or runs has changed.
      let again = !check.hasResults(.learner, for: inputs)
      if again {
        check.recordResults(.learner, for: nil)
        if let errors = try check.build() {
          progressLine(nil)
          say(style.red("  Your tests do not compile:"))
          for line in errors.prefix(20) { say("    " + line) }
          FaultLedger(workspace: package.workspace, stage: stage).record(complete: false)
          return false
        }
        progressLine("Running your tests against \(list.faults.count) faults…")
      }
      outcomes = try check.outcomes(.learner, again: again)
      if again { check.recordResults(.learner, for: inputs) }
      progressLine(nil)
    } catch let problem as FaultSchema.Problem {
      progressLine(nil)
      say(style.red("  \(FaultList.path(of: stage)) does not fit the solution: \(problem)"))
      return false
    }
    for line in FaultCheck.lines(outcomes, stage: stage, style: style) { say("  " + line) }
    let complete = outcomes.allSatisfy(\.isComplete)
    noteFaultsCaught(
      stage, caught: outcomes.map(\.caught.count).reduce(0, +),
      total: outcomes.map { $0.caught.count + $0.missed.count }.reduce(0, +))
    FaultLedger(workspace: package.workspace, stage: stage).record(complete: complete)
    return complete
  }
}

/// What the last `course check` of a stage's tests found, kept for `course status`.
///
/// A fault check builds and runs for seconds, too long for `status`, which runs
/// every stage. So `check` writes whether the learner's tests caught every fault,
/// with a fingerprint of the tests and the fault list; `status` trusts it only
/// while neither has changed.
struct FaultLedger {
  let workspace: Workspace
  let stage: Stage

  var path: String { ".build/course/faults/\(stage.folder).result" }

  /// A hash of the learner's tests and the fault list (FNV-1a, 64 bits).
  var fingerprint: String {
    var hash = Fingerprint()
    let folder = FaultCheck.Role.learner.folder(of: stage)
    let paths = workspace.swiftFiles(under: folder).map { "\(folder)/\($0)" } + [FaultList.path(of: stage)]
    for path in paths {
      hash.add(bytes: path.utf8)
      hash.add(bytes: (try? Data(contentsOf: workspace.url(path))) ?? Data())
    }
    return hash.value
  }

  func record(complete: Bool) {
    let url = workspace.url(path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data("\(fingerprint) \(complete ? "complete" : "incomplete")\n".utf8).write(to: url)
  }

  /// Whether the last check found every fault caught, for the tests as they are now.
  var isComplete: Bool {
    guard let text = try? String(contentsOf: workspace.url(path), encoding: .utf8) else { return false }
    return text.trimmingCharacters(in: .whitespacesAndNewlines) == "\(fingerprint) complete"
  }

  /// Whether a check has run for the tests as they are now.
  var isCurrent: Bool {
    guard let text = try? String(contentsOf: workspace.url(path), encoding: .utf8) else { return false }
    return text.hasPrefix(fingerprint + " ")
  }
}
