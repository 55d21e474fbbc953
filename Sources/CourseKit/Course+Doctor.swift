import CatalogServer
import Classroom
import Foundation

/// `course doctor [--json]`: is this laptop ready for the course?
extension Course {
  func doctor(json: Bool, environment: Doctor.Environment? = nil) throws -> Int32 {
    let doctor = Doctor(
      workspace: package.workspace, runner: package.runner, buildSystem: package.buildSystem,
      environment: environment ?? .system(portIsFree: { CatalogServer.canListen(port: $0) }))
    if !json { say(style.bold("course doctor") + ": is this laptop ready for the course?\n") }
    if !json { progressLine("Checking the toolchain and timing a one-file compile…") }
    let report = try doctor.run()
    progressLine(nil)
    report.record(in: package.workspace)
    // A joined laptop tells the room at once: its row leaves "Not passed `course doctor`" now, not at the next check.
    tellClassroom(.doctor)
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
    return report.exitStatus
  }
}
