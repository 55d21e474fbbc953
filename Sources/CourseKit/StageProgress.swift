import Foundation

/// Where a learner stands on one stage, as `course` shows it.
public enum StageProgress: Sendable, Equatable {
  /// Every test of the lesson passes.
  case solved(total: Int)
  /// The lesson has edits and some tests still fail.
  case inProgress(passed: Int, total: Int)
  /// The lesson is as the course shipped it.
  case notStarted(passed: Int, total: Int)
  /// The lesson's suite crashed or hung: says which and where, and how many
  /// tests passed before it (a test that never ended has not passed).
  case broken(String, passed: Int, total: Int)

  /// Reads a stage's progress from its lesson suite and whether its files were edited.
  ///
  /// - Parameter edited: From git; `nil` when git cannot tell, which counts as edited.
  public init(result: SuiteResult, edited: Bool?) {
    if let reason = result.brokenReason {
      self = .broken(reason, passed: result.passed, total: result.total)
    } else if result.allPassed {
      self = .solved(total: result.total)
    } else if edited == false {
      self = .notStarted(passed: result.passed, total: result.total)
    } else {
      self = .inProgress(passed: result.passed, total: result.total)
    }
  }

  /// Whether the stage is done.
  public var isSolved: Bool {
    if case .solved = self { return true }
    return false
  }
}
