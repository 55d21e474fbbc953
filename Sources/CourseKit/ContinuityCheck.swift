import Foundation

/// Contract item 3: Lesson NN starts where Solution NN-1 ended.
///
/// Every file of Lessons/NN-Name is byte-identical to the same file in the
/// previous stage's solution, except the learner's files of the stage, which
/// the stage doc lists in a section headed exactly `## Your files`, one bullet
/// per file with its path relative to Lessons/NN-Name in backticks:
///
/// ```markdown
/// ## Your files
///
/// - `ProductRow.swift`: Task 3, new
/// - `SQLiteProductLocalDataSource.swift`: Tasks 1, 2, 4 and 5
/// ```
///
/// A span in a bullet counts as a file when it ends in `.swift` or names a file
/// of the lesson. A listed file may be new, changed, or removed (a file of the
/// previous solution that this stage deletes); it must exist in one of the two.
/// Every unlisted file of the previous solution must be in the lesson, so a file
/// an earlier stage adds cannot silently miss this one. The first stage has no
/// predecessor and is not checked. The learner's tests (`YourTests/`) are the
/// fault check's, not this one's: each stage starts them from its placeholders.
enum ContinuityCheck {
  /// The heading of the section that lists the learner's files.
  static let heading = "Your files"

  /// Checks one stage against the stage before it in `stages`; no lines for the first stage.
  static func checks(for stage: Stage, after previous: Stage?, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let previous else { return [] }
    let lesson = "Lessons/\(stage.folder)"
    let solution = "Solutions/\(previous.folder)"
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else {
      return []  // The required-files check reports a missing doc.
    }
    let lessonFiles = workspace.files(under: lesson).filter { !$0.hasPrefix(FaultCheck.testsFolder + "/") }
    guard let listed = learnerFiles(in: StageDoc(markdown: markdown), lessonFiles: lessonFiles) else {
      return [
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc) has no `## \(heading)` section, so Lessons/\(stage.folder) cannot be checked "
            + "against \(solution); add one with a bullet per file the learner writes or changes in this "
            + "stage, such as \"- `ProductRow.swift`: Task 3, new\"")
      ]
    }
    guard workspace.exists(solution) else {
      return [StageVerdict.Check(ok: false, text: "\(solution) is missing, so \(lesson) cannot be checked against it")]
    }
    var problems: [StageVerdict.Check] = []
    let solutionFiles = workspace.files(under: solution).filter { !$0.hasPrefix(FaultCheck.testsFolder + "/") }
    for file in listed where !lessonFiles.contains(file) && !solutionFiles.contains(file) {
      problems.append(
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc) lists `\(file)` under ## \(heading), but neither \(lesson)/\(file) nor "
            + "\(solution)/\(file) exists; correct the name or take the line out"))
    }
    for file in solutionFiles where !lessonFiles.contains(file) && !listed.contains(file) {
      problems.append(
        StageVerdict.Check(
          ok: false,
          text: "\(solution)/\(file) is missing from \(lesson): copy it there, or, if this stage removes it, "
            + "list it under ## \(heading) in \(stage.doc)"))
    }
    for file in lessonFiles where !listed.contains(file) {
      let earlier = workspace.url("\(solution)/\(file)")
      guard let before = try? Data(contentsOf: earlier) else {
        problems.append(
          StageVerdict.Check(
            ok: false,
            text: "\(lesson)/\(file) is not in \(solution); list it under ## \(heading) in \(stage.doc) "
              + "if the learner writes it in this stage, or add it to \(solution) if an earlier stage made it"))
        continue
      }
      if (try? Data(contentsOf: workspace.url("\(lesson)/\(file)"))) != before {
        problems.append(
          StageVerdict.Check(
            ok: false,
            text: "\(lesson)/\(file) differs from \(solution)/\(file): copy \(solution)/\(file) over "
              + "\(lesson)/\(file), or list it under ## \(heading) in \(stage.doc)"))
      }
    }
    if problems.isEmpty {
      let same = lessonFiles.count - listed.count
      return [
        StageVerdict.Check(
          ok: true,
          text: "\(lesson) starts from \(solution): \(same) file(s) the same, "
            + "\(listed.count) learner file(s) listed in \(stage.doc)")
      ]
    }
    return problems
  }

  /// The files the doc's `## Your files` section lists, or `nil` when it has no such section.
  static func learnerFiles(in doc: StageDoc, lessonFiles: [String]) -> [String]? {
    guard let lines = doc.section(heading) else { return nil }
    var files: [String] = []
    for line in lines {
      let trimmed = line.drop { $0 == " " }
      guard trimmed.hasPrefix("- ") || trimmed.hasPrefix("* ") else { continue }
      for span in StageDoc.codeSpans(in: String(trimmed))
      where (span.hasSuffix(".swift") || lessonFiles.contains(span)) && !files.contains(span) {
        files.append(span)
      }
    }
    return files
  }
}
