import CourseKit
import Foundation

extension TemporaryWorkspace {
  /// Runs git in the workspace with a real process, as `course` would.
  @discardableResult
  func git(_ arguments: String...) throws -> CommandResult {
    let result = try ProcessCommandRunner().run(
      ["git", "-c", "user.name=Course", "-c", "user.email=course@example.invalid", "-c", "commit.gpgsign=false"]
        + arguments,
      in: workspace.root, timeout: 30, onLine: { _ in })
    guard result.status == 0 else {
      throw CourseError.cannotRun(command: "git " + arguments.joined(separator: " "), reason: result.output)
    }
    return result
  }

  /// Makes the workspace a git repository with everything in it committed, as a fresh clone is.
  func commitEverything() throws {
    try git("init", "-q")
    try git("add", "-A")
    try git("commit", "-q", "-m", "course")
  }
}
