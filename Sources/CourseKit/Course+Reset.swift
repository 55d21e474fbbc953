import Foundation

/// `course reset [NN] [--force]`: a lesson as the course shipped it, and nothing else touched.
extension Course {
  func reset(_ number: String?, force: Bool) throws -> Int32 {
    guard let stage = try stageToWorkOn(number) else {
      say(style.green("Every stage is solved.") + " Name the stage to reset: `\(invocation) reset 01`.")
      return 0
    }
    let folder = "Lessons/\(stage.folder)"
    let status = try git(["status", "--porcelain", "--untracked-files=all", "--", folder])
    let untracked = status.split(separator: "\n").filter { $0.hasPrefix("?? ") }
      .map { String($0.dropFirst(3)).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) }
    if status.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
      say("\(folder) is already as the course shipped it; nothing to reset.")
      return 0
    }
    var added = 0
    var removed = 0
    var changedFiles = 0
    for line in try git(["diff", "--numstat", "HEAD", "--", folder]).split(separator: "\n") {
      let columns = line.split(separator: "\t")
      guard columns.count >= 3 else { continue }
      changedFiles += 1
      added += Int(columns[0]) ?? 0
      removed += Int(columns[1]) ?? 0
    }
    let newLines = untracked.reduce(0) { total, path in
      let text = (try? String(contentsOf: package.workspace.url(path), encoding: .utf8)) ?? ""
      return total + text.split(separator: "\n", omittingEmptySubsequences: false).count
        - (text.hasSuffix("\n") || text.isEmpty ? 1 : 0)
    }
    let lost = added + newLines
    var parts: [String] = []
    if changedFiles > 0 { parts.append("\(added) added or changed and \(removed) removed in \(changedFiles) file(s)") }
    if !untracked.isEmpty { parts.append("\(newLines) in \(untracked.count) new file(s)") }
    let what = "\(lost) line(s) you wrote (\(parts.joined(separator: "; ")))"
    guard force else {
      say(style.red("Not reset: that would throw away \(what) in \(folder)."))
      say(
        "To keep a copy first: `git stash --include-untracked` or `\(invocation) diff \(stage.number)`. "
          + "To throw them away: `\(invocation) reset \(stage.number) --force`.")
      return 1
    }
    _ = try git(["checkout", "HEAD", "--", folder])
    if !untracked.isEmpty { _ = try git(["clean", "-f", "-d", "--", folder]) }
    say(style.green("\(folder) is back as the course shipped it.") + " Threw away \(what).")
    return 0
  }

  /// Runs git in the workspace and returns its output.
  ///
  /// - Throws: `CourseError.cannotRun` when git fails, as it does outside a clone.
  func git(_ arguments: [String]) throws -> String {
    let result = try package.runner.run(["git"] + arguments, in: package.workspace.root, timeout: 30) { _ in }
    guard result.status == 0, !result.timedOut else {
      throw CourseError.cannotRun(
        command: (["git"] + arguments).joined(separator: " "),
        reason: result.output.trimmingCharacters(in: .whitespacesAndNewlines)
          + " (reset needs the course as a git clone)")
    }
    return result.output
  }
}
