import Foundation

/// The options of `course classroom`, parsed; each declared once in `declarations`.
public struct ClassroomOptions: Sendable, Equatable {
  /// The port; 0 picks a free one.
  public var port: UInt16 = 8090
  /// The IPv4 address to listen on: 127.0.0.1 unless the room's network must reach it.
  public var address = "127.0.0.1"
  /// Minutes on one failing task before any learner is marked stuck; `nil`
  /// uses each stage's own figure: twice the course's time per task.
  public var stuckMinutes: Int?
  /// The room's file, relative to the package root unless absolute.
  public var room = ".build/course/classroom.sqlite"
  /// Start a new room (new join code and token) instead of reopening the file's.
  public var fresh = false
  /// Remove this learner from the room's file and exit, instead of serving.
  public var forget: String?

  public init() {}

  typealias Declaration = OptionDeclaration<ClassroomOptions>

  static let declarations: [Declaration] = [
    Declaration(flag: "--port", value: "N", help: "The port (default 8090; 0 picks a free one).") {
      options, text throws(CourseError) in
      guard let port = UInt16(text) else { throw .usage("--port takes a port number from 0 to 65535, got \(text).") }
      options.port = port
    },
    Declaration(
      flag: "--address", value: "A",
      help: "The IPv4 address to listen on (default 127.0.0.1, this laptop only; 0.0.0.0 for the room's network)."
    ) { options, text throws(CourseError) in
      let parts = text.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else {
        throw .usage("--address takes an IPv4 address such as 0.0.0.0 or 192.168.1.20, got \(text).")
      }
      options.address = text
    },
    Declaration(
      flag: "--stuck", value: "MIN",
      help: "Mark a learner stuck after MIN minutes on one task (default: twice the course's time for the task)."
    ) {
      options, text throws(CourseError) in
      guard let minutes = Int(text), (1...600).contains(minutes) else {
        throw .usage("--stuck takes minutes from 1 to 600, got \(text).")
      }
      options.stuckMinutes = minutes
    },
    Declaration(flag: "--room", value: "FILE", help: "The room's file (default .build/course/classroom.sqlite).") {
      options, text throws(CourseError) in
      guard !text.isEmpty else { throw .usage("--room takes a file name.") }
      options.room = text
    },
    Declaration(flag: "--new", value: nil, help: "Start a new room: a new join code and token, nobody in it.") {
      options, _ in options.fresh = true
    },
    Declaration(
      flag: "--forget", value: "NAME",
      help: "Remove one learner (their row and snapshots) from the room's file, and exit."
    ) { options, text throws(CourseError) in
      guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { throw .usage("--forget takes a nickname.") }
      options.forget = text
    },
  ]

  /// Parses the arguments after `classroom`.
  ///
  /// - Throws: `CourseError.usage` naming the option at fault.
  static func parse(_ arguments: [String]) throws(CourseError) -> ClassroomOptions {
    try Declaration.parse(arguments, into: ClassroomOptions(), with: declarations, command: "classroom")
  }

  /// `course help classroom`.
  static var help: String {
    """
    USAGE: swift run course classroom [--port N] [--address A] [--stuck MIN] [--room FILE] [--new]
           swift run course classroom --forget NAME [--room FILE]

    For the instructor: a live view of the room. It prints the address of
    the page, a join code for the learners and a separate instructor token,
    then serves until Ctrl-C. Learners opt in with
      swift run course join http://ADDRESS:PORT CODE --name NICKNAME
    and from then on each `course`, `course check`, `course hint` and rerun
    of `course watch` on their laptop sends a snapshot: stage, tasks passing
    and failing, the task they are on and for how long, hints taken, faults
    their tests caught, their `course doctor` result. Never code, file paths,
    user names or machine details.

    The page shows, first, how many learners are on each task (with its
    title) and who has not passed `course doctor`; then one row per learner
    and one column per stage (solved, the task, its title and minutes on it,
    or not started). Rows come in the order of who needs you: STUCK (red)
    on one failing task past twice the course's time for the task (or
    --stuck MIN), then HINT (blue) a hint in the last 5 minutes, then
    worrying (amber) past the task's usual time, then a blocked doctor, then
    laptops quiet for 10 minutes; everyone else by name. It redraws every
    second. The page and its data need the instructor token: the first
    visit keeps it in a cookie and takes it off the address bar. Every post
    needs the join code.

    A laptop that joins again under its name (a second terminal, a fresh
    clone) gets its row back: it proves it is the same laptop with a key
    kept in the user's configuration folder. Another laptop under a taken
    name is refused. `--forget NAME` removes one learner, whether or not the
    classroom is running; so does the row's "forget" button on the page.

    The room is kept in a SQLite file, so a restart (even a crash) loses
    nobody and keeps the same code and token.

    OPTIONS:
    \(Declaration.helpLines(declarations))
      -h, --help       Show this help.

    Limits: 200 learners, nicknames of 24 characters, a 2 KiB snapshot; a
    laptop sending more than 5 snapshots at once, then more than one a
    second, gets 429. Joins, leaves and refused requests are logged on one
    line each, with the learner's nickname and the reason.
    """
  }
}
