import Foundation

/// Runs a command-line tool; the seam that lets CourseKit's tests run no process.
public protocol CommandRunning: Sendable {
  /// Runs `arguments` (the first is the tool, found on PATH) in `directory`.
  ///
  /// - Parameters:
  ///   - timeout: After this many seconds the command and every process it started are stopped.
  ///   - onLine: Called with each line of output as it arrives.
  /// - Throws: `CourseError.cannotRun` when the process cannot start, and
  ///   `CourseError.interrupted` when the user interrupted `course`.
  func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult
}
