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

  /// Starts `arguments` in `directory` and returns at once, the command's
  /// output going to the file `log`; the command goes on after `course` exits.
  ///
  /// - Throws: `CourseError.cannotRun` when the process cannot start.
  func start(_ arguments: [String], in directory: URL, log: URL) throws
}
