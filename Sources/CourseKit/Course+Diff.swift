import Foundation

/// `course diff [NN]`: the learner's lesson against the reference solution.
extension Course {
  func diff(_ number: String?) throws -> Int32 {
    guard let stage = try stageToWorkOn(number) else {
      say(style.green("Every stage is solved.") + " Name one to compare: `\(invocation) diff 01`.")
      return 0
    }
    let lesson = "Lessons/\(stage.folder)"
    let solution = "Solutions/\(stage.folder)"
    let workspace = package.workspace
    let lessonFiles = workspace.files(under: lesson)
    let solutionFiles = workspace.files(under: solution)
    let yours = Self.learnerFiles(of: stage, in: workspace, lessonFiles: lessonFiles)
    let others = Set(lessonFiles + solutionFiles).subtracting(yours).sorted()
    say(
      style.bold("\(lesson) against \(solution)") + ": lines starting with - are yours, + the solution's."
        + (yours.isEmpty ? "" : " The files you edit come first."))
    var differing = 0
    for file in yours + others {
      let left = lessonFiles.contains(file) ? "\(lesson)/\(file)" : "/dev/null"
      let right = solutionFiles.contains(file) ? "\(solution)/\(file)" : "/dev/null"
      let result = try package.runner.run(
        ["git", "diff", "--no-index", style.colored ? "--color=always" : "--color=never", "--", left, right],
        in: workspace.root, timeout: 30, onLine: { _ in })
      switch result.status {
      case 0: continue
      case 1:
        differing += 1
        say("")
        say(result.output.trimmingCharacters(in: .newlines))
      default:
        throw CourseError.cannotRun(
          command: "git diff --no-index -- \(left) \(right)", reason: result.output.trimmingCharacters(in: .newlines))
      }
    }
    say("")
    say(
      differing == 0
        ? style.green("\(lesson) is the same as \(solution).")
        : "\(differing) file(s) differ. `\(invocation) check \(stage.number)` says which tasks are left.")
    return 0
  }

  /// The lesson files the stage doc lists under `## Your files`, in its order, that exist in either folder.
  static func learnerFiles(of stage: Stage, in workspace: Workspace, lessonFiles: [String]) -> [String] {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else { return [] }
    let solutionFiles = workspace.files(under: "Solutions/\(stage.folder)")
    return (ContinuityCheck.learnerFiles(in: StageDoc(markdown: markdown), lessonFiles: lessonFiles) ?? [])
      .filter { lessonFiles.contains($0) || solutionFiles.contains($0) }
  }
}
