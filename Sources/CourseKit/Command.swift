import Foundation

/// A `course` command line, parsed.
public enum Command: Sendable, Equatable {
  /// `course`: progress through the stages and the next step.
  case status
  /// `course verify`: check the stage contract for every stage.
  case verify
  /// `course help [command]`, `--help`, `-h`.
  case help(topic: String?)

  /// Parses the arguments after the program name.
  ///
  /// - Throws: `CourseError.usage` for an unknown command or option.
  public static func parse(_ arguments: [String]) throws -> Command {
    let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
    let words = arguments.filter { $0 != "--help" && $0 != "-h" }
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
               without crashing or hanging, each solution passes, each lesson
               starts from the previous solution, each doc names real code.
      help     Show this text, or `course help <command>` for one command.

    OPTIONS:
      -h, --help   Show help for the command.

    A suite that runs past \(limit) s counts as hung and is stopped, with every
    process it started. Ctrl-C stops the build or tests `course` started.
    Colour is used on a terminal only, and never when NO_COLOR is set.
    """

  /// The suite time limit, in whole seconds, for the help texts.
  private static let limit = Int(SwiftPackage.defaultSuiteTimeout)

  static let helpTopics: [String: String] = [
    "status": """
    USAGE: swift run course [status]

    Builds the package with its tests (the first build takes a few minutes;
    progress is shown), runs each stage's lesson suite, and prints a table:
      solved        every test of LessonNN passes
      in progress   you have edited Lessons/NN-Name and N of M tests pass
      not started   Lessons/NN-Name is as the course shipped it (per git)
      broken        the lesson's suite crashed or hung (ran past \(limit) s); the
                    row names the test that was running
    Counts come from swift-testing's event stream; each suite's console output
    is kept in .build/course/<Module>.log.
    Then it names the next doc to read and the command to run.
    Exits 0 unless the package does not build, 130 when interrupted.
    """,
    "verify": """
    USAGE: swift run course verify

    Checks the stage contract for every stage in Lessons/ and Solutions/:
      - Lessons/, Solutions/, Tests/, Tests/SolutionLinks/ and Docs/NN-Name.md exist
      - no lesson file calls fatalError
      - Lessons/NN-Name starts from the previous stage's solution: each of its
        files is byte-identical to the one in Solutions/(NN-1), unless
        Docs/NN-Name.md lists it under `## Your files`, one bullet per file
        with its path in backticks ("- `ProductRow.swift`: Task 3, new");
        stage 01 has no previous stage
      - every code name that inline code in the doc's `## Concepts` and
        `## Tasks` presents (`ProductRepository`, `load()`, `save(_:)`,
        `.networkFirst`) exists in the stage's lesson, solution or tests or in
        Sources/, and every file it names exists; fenced code blocks, shell
        commands, SQL, JSON and numbers are skipped, and names from Apple or
        from libraries the docs compare with are listed in
        Sources/CourseKit/ForeignNames.swift
      - LessonNN builds, fails at least one test, and crashes or hangs in none
        (a suite that runs past \(limit) s is stopped)
      - SolutionNN passes every test of the same suite
    Prints one block per stage and exits 1 when any stage breaks the contract.
    Instructors and CI run this; learners rarely need it.
    """,
  ]
}
