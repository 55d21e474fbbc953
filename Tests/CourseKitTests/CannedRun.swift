import CourseKit

/// What a stub command prints and, for `swift test`, what its event stream holds.
struct CannedRun: Sendable {
  var result: CommandResult
  var events: String?

  init(status: Int32 = 0, console: String = "", events: String? = nil, timedOut: Bool = false) {
    result = CommandResult(status: status, output: console, timedOut: timedOut)
    self.events = events
  }
}
