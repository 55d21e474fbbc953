import Foundation

/// What `course verify` found for one stage: each clause of the stage contract, kept or broken.
public struct StageVerdict: Sendable, Equatable {
  /// One clause of the contract and whether the stage keeps it.
  public struct Check: Sendable, Equatable {
    /// Whether the clause holds.
    public var ok: Bool
    /// What was checked and what was found, in one line.
    public var text: String

    /// Makes a check from its parts.
    public init(ok: Bool, text: String) {
      self.ok = ok
      self.text = text
    }
  }

  /// The stage checked.
  public var stage: Stage
  /// The clauses, in the order they were checked.
  public var checks: [Check]

  /// True when every clause holds.
  public var keepsContract: Bool { checks.allSatisfy(\.ok) }

  /// Judges a stage from its files, its doc and the results of its two suites.
  ///
  /// - Parameters:
  ///   - missingFiles: Required paths that do not exist.
  ///   - fatalErrorFiles: Lesson files that call `fatalError`.
  ///   - sourceChecks: Checks of the stage's files and doc that ran nothing, such as
  ///     `ContinuityCheck` and `DocNamesCheck`.
  ///   - lesson: The lesson suite's result.
  ///   - solution: The solution suite's result.
  public static func judge(
    stage: Stage, missingFiles: [String], fatalErrorFiles: [String], sourceChecks: [Check] = [],
    lesson: SuiteResult, solution: SuiteResult
  ) -> StageVerdict {
    var checks: [Check] = []
    checks.append(
      missingFiles.isEmpty
        ? Check(ok: true, text: "has its lesson, solution, tests, solution test link and \(stage.doc)")
        : Check(ok: false, text: "is missing \(missingFiles.joined(separator: ", "))"))
    if !fatalErrorFiles.isEmpty {
      checks.append(
        Check(
          ok: false,
          text: "\(stage.lessonModule) calls fatalError in \(fatalErrorFiles.joined(separator: ", ")); "
            + "a stub must throw NotDoneYet so one test fails instead of the whole run crashing"))
    }
    checks += sourceChecks
    checks.append(lessonCheck(stage, lesson))
    checks.append(solutionCheck(stage, solution))
    if lesson.ending == .finished, solution.ending == .finished, lesson.total != solution.total {
      checks.append(
        Check(
          ok: false,
          text: "\(stage.lessonModule) ran \(lesson.total) tests but \(stage.solutionModule) ran "
            + "\(solution.total); both must compile the same suite from Tests/\(stage.folder)"))
    }
    return StageVerdict(stage: stage, checks: checks)
  }

  private static func lessonCheck(_ stage: Stage, _ result: SuiteResult) -> Check {
    let module = stage.lessonModule
    if let reason = result.brokenReason {
      return Check(
        ok: false,
        text: "\(module)'s suite \(reason) (\(result.tally)); a lesson must fail fast, never crash or hang. "
          + "Output: \(SwiftPackage.logPath(of: "\(module)Tests"))")
    }
    if result.total == 0 { return Check(ok: false, text: "\(module)'s suite ran no tests") }
    if result.failed == 0 {
      return Check(
        ok: false,
        text: "\(module) passes all \(result.total) tests; a lesson must leave work to do "
          + "(was Solutions/\(stage.folder) copied into Lessons/\(stage.folder)?)")
    }
    let waiting = result.skipped == 0 ? "" : " (\(result.skipped) more skipped until an earlier task is done)"
    return Check(
      ok: true, text: "\(module) fails \(result.failed) of \(result.total) tests\(waiting) and crashes none")
  }

  private static func solutionCheck(_ stage: Stage, _ result: SuiteResult) -> Check {
    let module = stage.solutionModule
    if let reason = result.brokenReason {
      return Check(
        ok: false,
        text: "\(module)'s suite \(reason) (\(result.tally)). Output: \(SwiftPackage.logPath(of: "\(module)Tests"))")
    }
    if result.total == 0 { return Check(ok: false, text: "\(module)'s suite ran no tests") }
    if result.failed > 0 {
      return Check(
        ok: false,
        text: "\(module) fails \(result.failed) of \(result.total) tests: "
          + result.failedTests.joined(separator: ", "))
    }
    if result.skipped > 0 {
      return Check(
        ok: false,
        text: "\(module) skips \(result.skipped) of \(result.total) tests: "
          + result.skippedTests.joined(separator: ", ") + "; a solution must run every test")
    }
    return Check(ok: true, text: "\(module) passes all \(result.total) tests")
  }
}
