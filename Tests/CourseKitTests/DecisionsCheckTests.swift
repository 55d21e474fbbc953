import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that every stage doc from 02 on names the learner's decisions.
struct DecisionsCheckTests {
  static let stage = Stage(number: "03", name: "DependencyInjection")

  private func checks(_ markdown: String, stage: Stage = Self.stage, designs: Bool = true) throws
    -> [StageVerdict.Check]
  {
    let folder = try TemporaryWorkspace(stages: [stage.folder])
    try folder.write(stage.doc, markdown)
    if designs { try folder.write(stage.designsDoc, "# Designs\n") }
    return DecisionsCheck.checks(for: stage, in: folder.workspace)
  }

  @Test func twoDecisionsKeepTheContract() throws {
    let doc = """
      # Stage 03
      ## Concepts
      ## Your decisions
      Yours to choose.
      ### Which doubles the tests need
      ```text
      ### not a heading inside a fence
      ```
      ### Where the composition root draws the line
      ## Tasks
      ### Task 1: Something
      """
    let result = try checks(doc)
    #expect(result.map(\.ok) == [true, true], "\(result.map(\.text))")
    #expect(
      DecisionsCheck.titles(in: doc) == ["Which doubles the tests need", "Where the composition root draws the line"])
  }

  @Test func aMissingSectionOrASingleDecisionFails() throws {
    let missing = try checks("# Stage 03\n## Tasks\n### Task 1: Something\n")
    #expect(
      missing.map(\.ok) == [false, true] && missing.first?.text.contains("has no `## Your decisions` section") == true)
    let one = try checks("# Stage 03\n## Your decisions\n### Only one\n## Tasks\n")
    #expect(
      one.map(\.ok) == [false, true] && one.first?.text.contains("names 1 decision(s)") == true, "\(one.map(\.text))")
  }

  /// The answers to the decisions live in a designs doc read after passing; without one, they end up in the stage doc.
  @Test func aStageWithoutItsDesignsDocFails() throws {
    let doc = "# Stage 03\n" + TemporaryWorkspace.decisions + "## Tasks\n"
    let result = try checks(doc, designs: false)
    #expect(result.map(\.ok) == [true, false], "\(result.map(\.text))")
    #expect(
      result.last?.text
        == "Docs/03-DependencyInjection-Designs.md is missing: from stage 02 on, what the reference chose for each "
        + "decision and why, what the libraries chose, and the longer comparisons go there, read after passing "
        + "(`course check 03` names it once the stage is solved), so Docs/03-DependencyInjection.md can ask without "
        + "answering", "\(result.map(\.text))")
  }

  @Test func stage01AsksForNone() throws {
    let result = try checks(
      "# Stage 01\n", stage: Stage(number: "01", name: "ViewCallsURLSession"), designs: false)
    #expect(result.isEmpty, "no decisions, so no designs doc: \(result.map(\.text))")
  }
}
