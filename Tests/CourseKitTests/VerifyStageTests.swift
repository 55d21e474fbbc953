import CourseKit
import Foundation
import Testing

/// `course verify NN`: the stage contract for one stage, against the stage before it.
struct VerifyStageTests {
  @Test func parsesTheStage() throws {
    #expect(try Command.parse(["verify"]) == .verify)
    #expect(try Command.parse(["verify", "2"]) == .verifyStage(stage: "02"))
    #expect(Command.helpText("verify").contains("USAGE: swift run course verify [NN]"))
    #expect(throws: CourseError.self) { try Command.parse(["verify", "two"]) }
  }

  @Test func checksOnlyThatStageAndItsContinuityWithTheOneBefore() throws {
    let folder = try ContinuityCheckTests.twoStages()
    let (status, output, runner) = folder.run(.verifyStage(stage: "02"))
    #expect(status == 0, "\(output)")
    #expect(output.contains("Checking the stage contract for 1 stage(s)"), "\(output)")
    #expect(!output.contains("Stage 01-Intro"), "\(output)")
    #expect(
      output.contains("✔ Lessons/02-Next starts from Solutions/01-Intro: 1 file(s) the same"),
      "the stage before it is still the one it starts from: \(output)")
    let suites = runner.recorded.compactMap(StubCommandRunner.filter)
    #expect(suites.allSatisfy { $0.contains("02") }, "only stage 02's suites run: \(suites)")
    #expect(output.contains("All 1 stage(s) keep the contract."), "\(output)")
  }

  @Test func anUnknownStageIsRefused() throws {
    let folder = try ContinuityCheckTests.twoStages()
    let (status, output, _) = folder.run(.verifyStage(stage: "09"))
    #expect(status == 1)
    #expect(output.contains("No stage 09. The stages are 01, 02."), "\(output)")
  }
}
