import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that every stage doc from 02 on names the learner's decisions.
struct DecisionsCheckTests {
  static let stage = Stage(number: "03", name: "DependencyInjection")

  private func checks(_ markdown: String, stage: Stage = Self.stage) throws -> [StageVerdict.Check] {
    let folder = try TemporaryWorkspace(stages: [stage.folder])
    try folder.write(stage.doc, markdown)
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
    #expect(result.map(\.ok) == [true], "\(result.map(\.text))")
    #expect(
      DecisionsCheck.titles(in: doc) == ["Which doubles the tests need", "Where the composition root draws the line"])
  }

  @Test func aMissingSectionOrASingleDecisionFails() throws {
    let missing = try checks("# Stage 03\n## Tasks\n### Task 1: Something\n")
    #expect(missing.map(\.ok) == [false] && missing.first?.text.contains("has no `## Your decisions` section") == true)
    let one = try checks("# Stage 03\n## Your decisions\n### Only one\n## Tasks\n")
    #expect(one.map(\.ok) == [false] && one.first?.text.contains("names 1 decision(s)") == true, "\(one.map(\.text))")
  }

  @Test func stage01AsksForNone() throws {
    let result = try checks("# Stage 01\n", stage: Stage(number: "01", name: "ViewCallsURLSession"))
    #expect(result.isEmpty)
  }
}
