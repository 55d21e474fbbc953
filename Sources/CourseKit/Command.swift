import Foundation

/// A `course` command line, parsed.
public enum Command: Sendable, Equatable {
  /// `course`: progress through the stages and the next step.
  case status
  /// `course verify`: check the stage contract for every stage.
  case verify
  /// `course help [command]`, `--help`, `-h`.
  case help(topic: String?)
  /// `course serve [options]`: the fake Catalog API on 127.0.0.1.
  case serve(ServeOptions)

  /// Parses the arguments after the program name.
  ///
  /// - Throws: `CourseError.usage` for an unknown command or option.
  public static func parse(_ arguments: [String]) throws -> Command {
    let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
    let words = arguments.filter { $0 != "--help" && $0 != "-h" }
    if words.first == "serve" {
      return wantsHelp ? .help(topic: "serve") : .serve(try ServeOptions.parse(Array(words.dropFirst())))
    }
    if let option = words.first(where: { $0.hasPrefix("-") }) {
      throw CourseError.usage("Unknown option \(option).")
    }
    switch (words.first, words.count) {
    case (nil, _): return wantsHelp ? .help(topic: nil) : .status
    case ("status", 1): return wantsHelp ? .help(topic: "status") : .status
    case ("verify", 1): return wantsHelp ? .help(topic: "verify") : .verify
    case ("help", 1): return .help(topic: nil)
    case ("help", 2) where helpTopics.keys.contains(words[1]): return .help(topic: words[1])
    case ("help", _): throw CourseError.usage("No help for \(words.dropFirst().joined(separator: " ")).")
    default: throw CourseError.usage("Unknown command \(words.joined(separator: " ")).")
    }
  }

  /// The help text for a topic, or the overview for `nil`.
  public static func helpText(_ topic: String?) -> String {
    topic.flatMap { helpTopics[$0] } ?? overview
  }

  static let overview = """
    course: your companion through the Repository & Data Source course.

    USAGE: swift run course [command]

    COMMANDS:
      status   (the default) Build the package, run each stage's lesson suite,
               and show which stages are solved and what to do next.
      verify   Check the stage contract for every stage: each lesson fails
               without crashing, each solution passes, each stage has its doc.
      serve    Run the fake Catalog API on 127.0.0.1 for curl, an app or the
               simulator, and break its network live (`course help serve`).
      help     Show this text, or `course help <command>` for one command.

    OPTIONS:
      -h, --help   Show help for the command.

    Colour is used on a terminal only, and never when NO_COLOR is set.
    """

  static let helpTopics: [String: String] = [
    "serve": ServeOptions.help,
    "status": """
    USAGE: swift run course [status]

    Builds the package with its tests (the first build takes a few minutes;
    progress is shown), runs each stage's lesson suite, and prints a table:
      solved        every test of LessonNN passes
      in progress   you have edited Lessons/NN-Name and N of M tests pass
      not started   Lessons/NN-Name is as the course shipped it (per git)
      broken        the lesson's suite crashed or hung
    Then it names the next doc to read and the command to run.
    Exits 0 unless the package does not build.
    """,
    "verify": """
    USAGE: swift run course verify

    Checks the stage contract for every stage in Lessons/ and Solutions/:
      - Lessons/, Solutions/, Tests/, Tests/SolutionLinks/ and Docs/NN-Name.md exist
      - no lesson file calls fatalError
      - LessonNN builds, fails at least one test and crashes none
      - SolutionNN passes every test of the same suite
    Prints one block per stage and exits 1 when any stage breaks the contract.
    Instructors and CI run this; learners rarely need it.
    """,
  ]
}
