import Foundation

/// What `course verify` found for one stage: each clause of the stage contract, kept or broken.
public struct StageVerdict: Sendable, Equatable {
  /// One clause of the contract and whether the stage keeps it.
  public struct Check: Sendable, Equatable {
    /// Whether the clause holds.
    public var ok: Bool
    /// What was checked and what was found, in one line.
    public var text: String
  }

  /// The stage checked.
  public var stage: Stage
  /// The clauses, in the order they were checked.
  public var checks: [Check]

  /// True when every clause holds.
  public var keepsContract: Bool { checks.allSatisfy(\.ok) }

  /// Judges a stage from its files and the results of its two suites.
  ///
  /// - Parameters:
  ///   - missingFiles: Required paths that do not exist.
  ///   - fatalErrorFiles: Lesson files that call `fatalError`.
  ///   - lesson: The lesson suite's result, or `nil` when it could not run.
  ///   - solution: The solution suite's result, or `nil` when it could not run.
  public static func judge(
    stage: Stage, missingFiles: [String], fatalErrorFiles: [String],
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
    switch result.ending {
    case .crashed(let reason):
      return Check(
        ok: false,
        text: "\(module)'s suite crashed before it finished (\(reason)); a lesson must fail, not crash. "
          + "Output: \(SwiftPackage.logPath(of: "\(module)Tests"))")
    case .timedOut:
      return Check(ok: false, text: "\(module)'s suite did not finish in time; a lesson must fail fast, never hang")
    case .finished where result.total == 0:
      return Check(ok: false, text: "\(module)'s suite ran no tests")
    case .finished where result.failed == 0:
      return Check(
        ok: false,
        text: "\(module) passes all \(result.total) tests; a lesson must leave work to do "
          + "(was Solutions/\(stage.folder) copied into Lessons/\(stage.folder)?)")
    case .finished:
      return Check(ok: true, text: "\(module) fails \(result.failed) of \(result.total) tests and crashes none")
    }
  }

  private static func solutionCheck(_ stage: Stage, _ result: SuiteResult) -> Check {
    let module = stage.solutionModule
    switch result.ending {
    case .crashed(let reason):
      return Check(
        ok: false,
        text:
          "\(module)'s suite crashed before it finished (\(reason)). Output: \(SwiftPackage.logPath(of: "\(module)Tests"))"
      )
    case .timedOut:
      return Check(ok: false, text: "\(module)'s suite did not finish in time")
    case .finished where result.total == 0:
      return Check(ok: false, text: "\(module)'s suite ran no tests")
    case .finished where result.failed > 0:
      return Check(
        ok: false,
        text: "\(module) fails \(result.failed) of \(result.total) tests: "
          + result.failedTests.joined(separator: ", "))
    case .finished:
      return Check(ok: true, text: "\(module) passes all \(result.total) tests")
    }
  }
}
