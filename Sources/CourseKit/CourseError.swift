/// What can stop a `course` command before it has a report to give.
public enum CourseError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The command ran outside the course package.
  case notInWorkspace(String)
  /// The command line did not parse.
  case usage(String)
  /// `swift build --build-tests` failed; carries the compiler's error lines.
  case buildFailed(errors: [String])
  /// A command could not be started at all.
  case cannotRun(command: String, reason: String)
  /// The user pressed Ctrl-C (or `course` got SIGTERM or SIGHUP); what it started has been stopped.
  case interrupted

  public var description: String {
    switch self {
    case .notInWorkspace(let path):
      "No course workspace at or above \(path). Run `swift run course` from the folder that holds Package.swift, "
        + "or set COURSE_PACKAGE_ROOT to that folder."
    case .usage(let message):
      "\(message)\nRun `swift run course --help` for the commands."
    case .buildFailed(let errors):
      (["The package does not build yet. The compiler said:"] + errors.prefix(20).map { "  \($0)" }
        + ["Fix these errors (a lesson you are working on is the usual place), then run the command again."])
        .joined(separator: "\n")
    case .cannotRun(let command, let reason):
      "Could not run `\(command)`: \(reason)"
    case .interrupted:
      "Interrupted. The build or test run that `course` started has been stopped."
    }
  }
}
