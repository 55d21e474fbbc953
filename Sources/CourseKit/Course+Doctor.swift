import CatalogServer
import Classroom
import Foundation
import Synchronization

/// `course doctor [--json] [--name NAME]`: is this laptop ready for the course?
extension Course {
  /// `--name NAME` of `course doctor`, taken out of the arguments before they are
  /// parsed (`takeDoctorName(from:)`), as `--build-system` is.
  private static let doctorName = Mutex<String?>(nil)

  /// Takes `--name NAME` (or `--name=NAME`) out of a `course doctor` command line
  /// and keeps it for the doctor's line; any other command line is returned as it is.
  public static func takeDoctorName(from arguments: [String]) -> [String] {
    let (rest, name) = doctorName(in: arguments)
    if let name { doctorName.withLock { $0 = name } }
    return rest
  }

  /// A `course doctor` command line without its `--name`, and the name.
  static func doctorName(in arguments: [String]) -> (arguments: [String], name: String?) {
    guard arguments.first == "doctor" else { return (arguments, nil) }
    var rest: [String] = []
    var name: String?
    var words = arguments[...]
    while let word = words.popFirst() {
      if word == "--name", let value = words.first, !value.hasPrefix("-") {
        name = value
        words = words.dropFirst()
      } else if word.hasPrefix("--name=") {
        name = String(word.dropFirst("--name=".count))
      } else {
        rest.append(word)
      }
    }
    return (rest, name)
  }

  /// - Parameter name: who runs it; `nil` takes `--name`, then the nickname this clone joined a classroom with.
  func doctor(json: Bool, name: String? = nil, environment: Doctor.Environment? = nil) throws -> Int32 {
    let doctor = Doctor(
      workspace: package.workspace, runner: package.runner, buildSystem: package.buildSystem,
      environment: environment ?? .system(portIsFree: { CatalogServer.canListen(port: $0) }))
    if !json { say(style.bold("course doctor") + ": is this laptop ready for the course?\n") }
    if !json { progressLine("Checking the toolchain and timing a one-file compile six times…") }
    var report = try doctor.run()
    report.learner = DoctorReport.cleanName(
      name ?? Self.doctorName.withLock { $0 } ?? ClassroomMembership.read(in: package.workspace)?.name)
    progressLine(nil)
    report.record(in: package.workspace)
    // A joined laptop tells the room at once: its row leaves "Not passed `course doctor`" now, not at the next check.
    tellClassroom(.doctor, quietly: json)
    if json {
      say(report.json)
      return report.exitStatus
    }
    for check in report.checks {
      switch check.verdict {
      case .ok: say("  " + style.green("✔") + " " + check.summary)
      case .warning: say("  " + style.yellow("✘") + " " + check.summary + style.dim(" (warning)"))
      case .blocking: say("  " + style.red("✘") + " " + check.summary)
      }
      if let fix = check.fix, check.verdict != .ok { say("      fix: " + fix) }
    }
    say("")
    switch report.result {
    case .blocked:
      say(style.red("Something blocks the course on this laptop:") + " fix the ✘ lines above, then run it again.")
    case .warnings: say(style.green("Ready,") + " with warnings: the course works, but they will cost time on the day.")
    case .passed, .unknown: say(style.green("Ready for the course."))
    }
    say("")
    say("Paste this line to your instructor:")
    say("  " + report.line)
    if report.learner == nil {
      say(
        style.dim(
          "Add your name, so your line stands apart from the room's: `\(invocation) doctor --name YOUR-NAME`."))
    }
    return report.exitStatus
  }
}
