import Foundation

/// Contract item 10: a stage doc reads in about 20 minutes before its tasks.
///
/// At most `wordsBeforeTasks` words up to the `## Tasks` heading, and at most
/// `wordsInAll` in the whole doc. Words are counted as `wc -w` counts them:
/// runs of characters between white space, code blocks and tables included, so a
/// maintainer can check a doc with `sed '/^## Tasks/,$d' Docs/NN-Name.md | wc -w`.
enum DocLengthCheck {
  /// The most words a stage doc may have before `## Tasks`: about 20 minutes of reading.
  static let wordsBeforeTasks = 3_000
  /// The most words a stage doc may have in all.
  static let wordsInAll = 5_000

  /// Checks one stage's doc; one line when it keeps both limits, one per limit it passes otherwise.
  static func checks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else {
      return []  // The required-files check reports a missing doc.
    }
    let (before, all) = (words(in: beforeTasks(markdown)), words(in: markdown))
    let elsewhere =
      Int(stage.number).map { $0 >= DecisionsCheck.firstStage } ?? false
      ? "move what the reference and the libraries chose, and the longer comparisons, to \(stage.designsDoc), "
        + "and the steps to \(HintsFile.path(of: stage))"
      : "move the steps to \(HintsFile.path(of: stage)), or cut"
    var checks: [StageVerdict.Check] = []
    if before > wordsBeforeTasks {
      checks.append(
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc) has \(before) words before ## Tasks, \(before - wordsBeforeTasks) over the "
            + "\(wordsBeforeTasks) a learner reads in about 20 minutes before starting: \(elsewhere)"))
    }
    if all > wordsInAll {
      checks.append(
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc) has \(all) words in all, \(all - wordsInAll) over the limit of \(wordsInAll): "
            + elsewhere))
    }
    if checks.isEmpty {
      checks.append(
        StageVerdict.Check(
          ok: true,
          text: "\(stage.doc) has \(before) words before ## Tasks (at most \(wordsBeforeTasks)) and \(all) in all "
            + "(at most \(wordsInAll))"))
    }
    return checks
  }

  /// The text up to the first `## Tasks` heading outside a fenced code block; all of it when there is none.
  static func beforeTasks(_ markdown: String) -> Substring {
    var inFence = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
      if StageDoc.isFence(String(line)) { inFence.toggle() }
      if !inFence, line.trimmingCharacters(in: .whitespaces) == "## Tasks" { return markdown[..<line.startIndex] }
    }
    return markdown[...]
  }

  /// How many words `wc -w` counts in `text`: runs of bytes that are not white space.
  ///
  /// GNU and BSD `wc` split at the C locale's white space (space, tab, newline,
  /// vertical tab, form feed, carriage return), and in a UTF-8 locale at Unicode
  /// spaces too, except the no-break ones. Docs use ASCII white space, where all agree.
  static func words(in text: Substring) -> Int {
    var count = 0
    var inWord = false
    for scalar in text.unicodeScalars {
      let space =
        scalar.properties.isWhitespace && !["\u{A0}", "\u{2007}", "\u{202F}"].contains(scalar)
      if space {
        inWord = false
      } else if !inWord {
        inWord = true
        count += 1
      }
    }
    return count
  }

  /// `words(in:)` of a whole text.
  static func words(in text: String) -> Int { words(in: text[...]) }
}
