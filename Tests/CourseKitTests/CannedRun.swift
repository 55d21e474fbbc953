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

extension CannedRun {
  /// The three tests of every canned suite.
  static let tests = ["a()", "b()", "c()"]
  /// A lesson suite in which one of three tests fails.
  static let lessonFails = CannedRun(
    status: 1, console: "✘ Test run with 3 tests in 1 suite failed after 0.1 seconds with 1 issue.",
    events: EventStreamFixture.run(tests: tests, failing: ["a()"]))
  /// A suite in which every test passes.
  static let allPass = CannedRun(
    console: "✔ Test run with 3 tests in 1 suite passed after 0.1 seconds.",
    events: EventStreamFixture.run(tests: tests))

  /// Answers every lesson suite with `lesson`, every solution suite with `solution`, git with
  /// `gitStatus`, and a build with two steps.
  static func answer(lesson: CannedRun = lessonFails, solution: CannedRun = allPass, gitStatus: String = "")
    -> @Sendable ([String]) -> CannedRun
  {
    { arguments in
      if let filter = StubCommandRunner.filter(arguments) { return filter.hasPrefix("Lesson") ? lesson : solution }
      if arguments.first == "git" { return CannedRun(console: gitStatus) }
      return CannedRun(console: "[1/2] Compiling\n[2/2] Linking\nBuild complete!")
    }
  }
}
