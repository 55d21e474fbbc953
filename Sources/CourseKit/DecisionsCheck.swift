import Foundation

/// The clause of the stage contract about decisions: from stage 02 on, the stage
/// doc has a `## Your decisions` section with at least `minimum` decisions, each a
/// `### ` heading, that the learner makes and the tests leave open; and what the
/// reference and the libraries chose is in the stage's designs doc
/// (`Docs/NN-Name-Designs.md`), read after passing, never in the stage doc.
enum DecisionsCheck {
  /// The fewest decisions a stage doc may name.
  static let minimum = 2
  /// The first stage that asks for decisions: stage 01 is the anti-pattern, fixed in place.
  static let firstStage = 2

  /// Checks one stage: its decisions and its designs doc, a line each; none for a stage before `firstStage`.
  static func checks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let number = Int(stage.number), number >= firstStage else { return [] }
    return decisionChecks(for: stage, in: workspace) + [designsDocCheck(for: stage, in: workspace)]
  }

  /// Whether the stage has its designs doc, where the answers to its decisions go.
  static func designsDocCheck(for stage: Stage, in workspace: Workspace) -> StageVerdict.Check {
    guard workspace.exists(stage.designsDoc) else {
      return StageVerdict.Check(
        ok: false,
        text: "\(stage.designsDoc) is missing: from stage 0\(firstStage) on, what the reference chose for each "
          + "decision and why, what the libraries chose, and the longer comparisons go there, read after passing "
          + "(`course check \(stage.number)` names it once the stage is solved), so \(stage.doc) can ask without answering"
      )
    }
    return StageVerdict.Check(ok: true, text: "\(stage.designsDoc) holds the answers to the decisions")
  }

  /// The `## Your decisions` line of `checks`.
  private static func decisionChecks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else {
      return []  // The required-files check reports a missing doc.
    }
    let decisions = titles(in: markdown)
    guard let decisions else {
      return [
        StageVerdict.Check(
          ok: false,
          text:
            "\(stage.doc) has no `## Your decisions` section: name at least \(minimum) decisions the learner makes, "
            + "each under a `### ` heading, with the options and their trade-offs (what the reference chose goes "
            + "in \(stage.designsDoc))")
      ]
    }
    guard decisions.count >= minimum else {
      return [
        StageVerdict.Check(
          ok: false,
          text: "\(stage.doc)'s `## Your decisions` names \(decisions.count) decision(s) under `### ` headings; "
            + "it needs at least \(minimum)")
      ]
    }
    return [StageVerdict.Check(ok: true, text: "\(stage.doc): \(decisions.count) decisions under ## Your decisions")]
  }

  /// The `### ` headings of the `## Your decisions` section, or `nil` when there is none.
  static func titles(in markdown: String) -> [String]? {
    guard let lines = StageDoc(markdown: markdown).section("Your decisions") else { return nil }
    var inFence = false
    var titles: [String] = []
    for line in lines {
      if StageDoc.isFence(line) { inFence.toggle() }
      if !inFence, line.hasPrefix("### ") { titles.append(line.dropFirst(4).trimmingCharacters(in: .whitespaces)) }
    }
    return titles
  }
}
