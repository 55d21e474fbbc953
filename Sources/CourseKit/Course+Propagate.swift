import Foundation

/// `course propagate FILE [--dry-run]`: an edit to one file, carried into every later copy the continuity rule makes of it.
extension Course {
  func propagate(_ file: String, dryRun: Bool) throws -> Int32 {
    let workspace = package.workspace
    let path = Self.packagePath(file, in: workspace)
    let plan = try Propagation.plan(path, in: workspace)
    say(style.bold("Propagating \(plan.source)") + (dryRun ? " (dry run: nothing is written)" : ""))
    if let nothing = plan.nothingToDo {
      say(nothing)
      return 0
    }
    for target in plan.copies {
      if !dryRun {
        let url = workspace.url(target)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try plan.text.write(to: url, options: .atomic)
      }
      say("  " + style.green(dryRun ? "would copy to" : "copied to") + " \(target)")
    }
    for target in plan.current { say("  already the same: \(target)") }
    if let earlier = plan.earlier {
      say(
        "Earlier copies keep the old text: \(earlier.copy) is not the learner's in its stage and differs. "
          + "If the edit belongs there too, make it where the copies start, \(earlier.origin), and propagate that.")
    }
    let unfit = faultsThatNoLongerFit(plan)
    for problem in unfit { say(style.red("  ✘ ") + problem) }
    var handMerge = false
    if let stop = plan.stop {
      say(stop.reason)
      if !stop.toMerge.isEmpty {
        handMerge = true
        say(
          style.bold("Merge the edit by hand into \(stop.toMerge.joined(separator: " and "))")
            + " (never overwritten):")
        say(try editDiff(plan, stop))
      }
    }
    let count = plan.copies.count
    let copied = dryRun ? "\(count) file(s) would be copied" : "\(count) file(s) copied"
    say("")
    if handMerge || !unfit.isEmpty {
      say(
        style.red(copied + "; the rest is yours to merge or fix by hand, as above.")
          + " Then run `\(invocation) verify`.")
      return 1
    }
    say(style.green(copied + ".") + (dryRun || count == 0 ? "" : " Then run `\(invocation) verify`."))
    return 0
  }

  /// The path of `file` relative to the package root: it may be given from the root, from the current directory, or absolute.
  static func packagePath(_ file: String, in workspace: Workspace) -> String {
    let root = workspace.root.standardizedFileURL.path
    let current = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    var candidates = [URL(fileURLWithPath: file, relativeTo: current).standardizedFileURL.path]
    if !file.hasPrefix("/") {
      candidates.insert(workspace.url(file).standardizedFileURL.path, at: 0)
    }
    let inside = candidates.filter { $0.hasPrefix(root + "/") }
    let chosen = inside.first { FileManager.default.fileExists(atPath: $0) } ?? inside.first
    guard let chosen else { return file }
    return String(chosen.dropFirst(root.count + 1))
  }

  /// Faults of `Faults/NN-Name.md` whose quoted solution text the new text no longer holds exactly once.
  func faultsThatNoLongerFit(_ plan: Propagation) -> [String] {
    let solutions = ([plan.source] + plan.copies + plan.current).filter { $0.hasPrefix("Solutions/") }
    let text = String(decoding: plan.text, as: UTF8.self)
    return solutions.compactMap { path -> String? in
      let parts = path.split(separator: "/", maxSplits: 2).map(String.init)
      guard parts.count == 3, let stage = Stage(folderName: parts[1]), let list = faultList(of: stage) else {
        return nil
      }
      let faults = list.faults.filter { $0.file == parts[2] }
      guard !faults.isEmpty else { return nil }
      do {
        _ = try FaultSchema.apply(faults, to: text)
        return nil
      } catch {
        return "\(FaultList.path(of: stage)) no longer fits \(path): \(error)"
      }
    }
  }

  /// The edit to merge by hand: the text the stopping stage started from, before and
  /// after; or, when that is unknown, the stage's own versions against the new text.
  func editDiff(_ plan: Propagation, _ stop: Propagation.Stop) throws -> String {
    let before = stop.before ?? committedText(of: plan.source)
    if let before, before != plan.text {
      return try unifiedDiff(
        [("before/\(stop.startsFrom)", before), ("after/\(stop.startsFrom)", plan.text)], header: "The edit:")
    }
    var sections: [String] = []
    for own in stop.toMerge {
      let theirs = (try? Data(contentsOf: package.workspace.url(own))) ?? Data()
      sections.append(
        try unifiedDiff(
          [("edited/\(plan.source)", plan.text), (own, theirs)],
          header: "\(own) against the edited file (+ lines are the stage's own):"))
    }
    return sections.joined(separator: "\n")
  }

  /// The file as the last commit has it; `nil` outside a clone or for a file git does not track.
  func committedText(of path: String) -> Data? {
    guard
      let result = try? package.runner.run(
        ["git", "show", "HEAD:\(path)"], in: package.workspace.root, timeout: 30, onLine: { _ in }),
      result.status == 0, !result.timedOut
    else { return nil }
    return Data(result.output.utf8)
  }

  /// A unified diff of two texts, written under their labels to a scratch folder outside the package.
  private func unifiedDiff(_ files: [(label: String, text: Data)], header: String) throws -> String {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("course-propagate-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: scratch) }
    for file in files {
      let url = scratch.appendingPathComponent(file.label)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try file.text.write(to: url)
    }
    let arguments =
      ["git", "diff", "--no-index", "--no-prefix", style.colored ? "--color=always" : "--color=never", "--"]
      + files.map(\.label)
    let result = try package.runner.run(arguments, in: scratch, timeout: 30, onLine: { _ in })
    guard result.status <= 1, !result.timedOut else {
      throw CourseError.cannotRun(
        command: arguments.joined(separator: " "), reason: result.output.trimmingCharacters(in: .newlines))
    }
    return header + "\n" + result.output.trimmingCharacters(in: .newlines)
  }
}
