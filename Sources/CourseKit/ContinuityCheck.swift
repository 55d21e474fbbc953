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
///
/// A capstone starts from an empty folder instead: its doc has a section headed
/// exactly `## What you start with`, listing the only files its lesson holds
/// (the domain and the composition-root stub), and the lesson must hold exactly
/// those, whatever the previous solution has.
enum ContinuityCheck {
  /// The heading of the section that lists the learner's files.
  static let heading = "Your files"
  /// The heading of a capstone's list of the files its lesson starts with.
  static let startHeading = "What you start with"

  /// Where a stage's lesson starts, as its doc says: the rule `checks` holds it to,
  /// and `course propagate` copies by.
  enum Start: Equatable {
    /// The lesson repeats the previous solution, except the files the doc lists under `## Your files`.
    case previousSolution(learnerFiles: [String])
    /// A capstone: the lesson holds only the files the doc lists under `## What you start with`.
    case emptyFolder(given: [String])
    /// The doc has neither section.
    case unlisted
    /// The stage has no doc.
    case noDoc
  }

  /// What the stage's doc says its lesson starts from.
  static func start(of stage: Stage, in workspace: Workspace) -> Start {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else { return .noDoc }
    let lessonFiles = lessonFiles(of: stage, in: workspace)
    let doc = StageDoc(markdown: markdown)
    if doc.section(startHeading) != nil {
      return .emptyFolder(given: files(in: doc, section: startHeading, lessonFiles: lessonFiles) ?? [])
    }
    guard let listed = learnerFiles(in: doc, lessonFiles: lessonFiles) else { return .unlisted }
    return .previousSolution(learnerFiles: listed)
  }

  /// The files of a stage's lesson that the rule covers: all but the learner's tests.
  static func lessonFiles(of stage: Stage, in workspace: Workspace) -> [String] {
    workspace.files(under: "Lessons/\(stage.folder)").filter { !$0.hasPrefix(FaultCheck.testsFolder + "/") }
  }

  /// Checks one stage against the stage before it in `stages`; no lines for the first stage.
  static func checks(for stage: Stage, after previous: Stage?, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let previous else { return [] }
    let lesson = "Lessons/\(stage.folder)"
    let solution = "Solutions/\(previous.folder)"
    let lessonFiles = lessonFiles(of: stage, in: workspace)
    let listed: [String]
    switch start(of: stage, in: workspace) {
    case .noDoc:
      return []  // The required-files check reports a missing doc.
    case .emptyFolder(let given):
      return emptyFolderChecks(for: stage, given: given, lessonFiles: lessonFiles)
    case .previousSolution(let learnerFiles):
      listed = learnerFiles
    case .unlisted:
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

  /// A capstone's lesson holds exactly the files its doc's `## What you start with` lists.
  static func emptyFolderChecks(for stage: Stage, given: [String], lessonFiles: [String]) -> [StageVerdict.Check] {
    let lesson = "Lessons/\(stage.folder)"
    var problems: [StageVerdict.Check] = []
    if given.isEmpty {
      problems.append(
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc)'s `## \(startHeading)` lists no file; name the domain file and the composition-root stub")
      )
    }
    for file in given where !lessonFiles.contains(file) {
      problems.append(
        StageVerdict.Check(
          ok: false, text: "\(stage.doc) lists `\(file)` under ## \(startHeading), but \(lesson)/\(file) does not exist"
        ))
    }
    for file in lessonFiles where !given.contains(file) {
      problems.append(
        StageVerdict.Check(
          ok: false,
          text: "\(lesson)/\(file) is not listed under ## \(startHeading) in \(stage.doc): a capstone starts from "
            + "only the files listed there; the rest is the learner's to write"))
    }
    guard problems.isEmpty else { return problems }
    return [
      StageVerdict.Check(
        ok: true,
        text: "\(lesson) starts from an empty folder: only \(given.joined(separator: ", ")), as \(stage.doc) lists them"
      )
    ]
  }

  /// The files the doc's `## Your files` section lists, or `nil` when it has no such section.
  static func learnerFiles(in doc: StageDoc, lessonFiles: [String]) -> [String]? {
    files(in: doc, section: heading, lessonFiles: lessonFiles)
  }

  /// The files a section's bullets name, or `nil` when the doc has no such section.
  static func files(in doc: StageDoc, section: String, lessonFiles: [String]) -> [String]? {
    guard let lines = doc.section(section) else { return nil }
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
