import Foundation

/// The clause of the stage contract about decisions: from stage 02 on, the stage
/// doc has a `## Your decisions` section with at least `minimum` decisions, each a
/// `### ` heading, that the learner makes and the tests leave open.
enum DecisionsCheck {
  /// The fewest decisions a stage doc may name.
  static let minimum = 2
  /// The first stage that asks for decisions: stage 01 is the anti-pattern, fixed in place.
  static let firstStage = 2

  /// Checks one stage; one line either way, none for a stage before `firstStage`.
  static func checks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let number = Int(stage.number), number >= firstStage,
      let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8)
    else { return [] }  // The required-files check reports a missing doc.
    let decisions = titles(in: markdown)
    guard let decisions else {
      return [
        StageVerdict.Check(
          ok: false,
          text:
            "\(stage.doc) has no `## Your decisions` section: name at least \(minimum) decisions the learner makes, "
            + "each under a `### ` heading, with their trade-offs and what the reference chose")
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
