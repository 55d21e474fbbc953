import Foundation

/// A `course` command line, parsed.
public enum Command: Sendable, Equatable {
  /// `course`: progress through the stages and the next step.
  case status
  /// `course verify`: check the stage contract for every stage.
  case verify
  /// `course verify NN`: check it for one stage.
  case verifyStage(stage: String)
  /// `course check [NN]`: one stage's failures, grouped by task.
  case check(stage: String?)
  /// `course hint [NN] [TASK]`: the next hint for a task.
  case hint(stage: String?, task: Int?)
  /// `course diff [NN]`: the learner's lesson against the solution.
  case diff(stage: String?)
  /// `course reset [NN] [--force]`: the lesson as the course shipped it.
  case reset(stage: String?, force: Bool)
  /// `course watch [NN]`: `check` again after every change to the lesson.
  case watch(stage: String?)
  /// `course help [command]`, `--help`, `-h`.
  case help(topic: String?)
  /// `course serve [options]`: the fake Catalog API on 127.0.0.1.
  case serve(ServeOptions)
  /// `course demo [--base-url URL]`: the finished app, narrated, against an embedded `course serve`.
  case demo(DemoOptions)
  /// `course propagate FILE [--dry-run]`: an edit to a stage's file, copied into its later copies.
  case propagate(file: String, dryRun: Bool)

  /// `course doctor [--json]`: is this laptop ready for the course?
  case doctor(json: Bool)
  /// `course classroom [options]`: the instructor's live view of the room.
  case classroom(ClassroomOptions)
  /// `course join URL CODE --name NICKNAME`: send this laptop's progress to a classroom.
  case join(url: URL, code: String, name: String)
  /// `course leave`: stop sending it.
  case leave

  /// What one command accepts, declared once: its optional positional
  /// arguments, in order, and its flags; `make` turns what was given into the command.
  struct Syntax: Sendable {
    var name: String
    var arguments: [String] = []
    var flags: [String] = []
    var make: @Sendable (_ arguments: [String], _ flags: Set<String>) throws -> Command
  }

  /// Every command but `help`, in the order the overview lists them.
  static let syntaxes: [Syntax] = [
    Syntax(name: "status") { _, _ in .status },
    Syntax(name: "check", arguments: ["NN"]) { arguments, _ in .check(stage: try stage(arguments.first)) },
    Syntax(name: "hint", arguments: ["NN", "TASK"]) { arguments, _ in
      .hint(stage: try stage(arguments.first), task: try task(arguments.dropFirst().first))
    },
    Syntax(name: "diff", arguments: ["NN"]) { arguments, _ in .diff(stage: try stage(arguments.first)) },
    Syntax(name: "reset", arguments: ["NN"], flags: ["--force"]) { arguments, flags in
      .reset(stage: try stage(arguments.first), force: flags.contains("--force"))
    },
    Syntax(name: "watch", arguments: ["NN"]) { arguments, _ in .watch(stage: try stage(arguments.first)) },
    Syntax(name: "verify", arguments: ["NN"]) { arguments, _ in
      try stage(arguments.first).map { .verifyStage(stage: $0) } ?? .verify
    },
    Syntax(name: "doctor", flags: ["--json"]) { _, flags in .doctor(json: flags.contains("--json")) },
    Syntax(name: "leave") { _, _ in .leave },
    Syntax(name: "propagate", arguments: ["FILE"], flags: ["--dry-run"]) { arguments, flags in
      guard let file = arguments.first else {
        throw CourseError.usage(
          "Name the file you edited: `swift run course propagate Solutions/02-DataSources/ProductDTO.swift`.")
      }
      return .propagate(file: file, dryRun: flags.contains("--dry-run"))
    },
  ]

  /// Parses the arguments after the program name.
  ///
  /// - Throws: `CourseError.usage` for an unknown command, option or argument.
  public static func parse(_ arguments: [String]) throws -> Command {
    let wantsHelp = arguments.contains("--help") || arguments.contains("-h")
    let words = arguments.filter { $0 != "--help" && $0 != "-h" }
    guard let name = words.first else { return wantsHelp ? .help(topic: nil) : .status }
    if name == "serve" {
      return wantsHelp ? .help(topic: "serve") : .serve(try ServeOptions.parse(Array(words.dropFirst())))
    }
    if name == "demo" {
      return wantsHelp ? .help(topic: "demo") : .demo(try DemoOptions.parse(Array(words.dropFirst())))
    }
    if name == "classroom" {
      return wantsHelp
        ? .help(topic: "classroom") : .classroom(try ClassroomOptions.parse(Array(words.dropFirst())))
    }
    if name == "join" {
      return wantsHelp ? .help(topic: "join") : try parseJoin(Array(words.dropFirst()))
    }
    if name == "help" {
      guard words.count > 1 else { return .help(topic: nil) }
      guard words.count == 2, helpTopics.keys.contains(words[1]) else {
        throw CourseError.usage("No help for \(words.dropFirst().joined(separator: " ")).")
      }
      return .help(topic: words[1])
    }
    guard let syntax = syntaxes.first(where: { $0.name == name }) else {
      throw CourseError.usage("Unknown command \(words.joined(separator: " ")).")
    }
    let rest = words.dropFirst()
    if let option = rest.first(where: { $0.hasPrefix("-") && !syntax.flags.contains($0) }) {
      throw CourseError.usage("Unknown option \(option) for `course \(name)`.")
    }
    let positional = rest.filter { !$0.hasPrefix("-") }
    guard positional.count <= syntax.arguments.count else {
      throw CourseError.usage(
        "Too many arguments for `course \(name)`: \(positional.joined(separator: " ")).")
    }
    // Help needs no arguments, even from a command that requires one (`propagate --help`).
    if wantsHelp { return .help(topic: name) }
    return try syntax.make(Array(positional), Set(rest.filter { $0.hasPrefix("-") }))
  }

  /// Reads `URL CODE --name NICKNAME`, in any order of the option.
  private static func parseJoin(_ arguments: [String]) throws -> Command {
    var positional: [String] = []
    var name: String?
    var remaining = arguments[...]
    while let word = remaining.popFirst() {
      if word == "--name" {
        guard let value = remaining.popFirst() else {
          throw CourseError.usage("--name needs a value: --name NICKNAME.")
        }
        name = value
      } else if word.hasPrefix("--name=") {
        name = String(word.dropFirst("--name=".count))
      } else if word.hasPrefix("-") {
        throw CourseError.usage("Unknown option \(word) for `course join`.")
      } else {
        positional.append(word)
      }
    }
    let usage = "swift run course join http://ADDRESS:PORT CODE --name NICKNAME (the instructor's screen shows them)"
    guard positional.count == 2, let name else { throw CourseError.usage("Usage: \(usage).") }
    guard let url = URL(string: positional[0]), url.scheme == "http" || url.scheme == "https", url.host != nil else {
      throw CourseError.usage("\(positional[0]) is not an address such as http://192.168.1.20:8090.")
    }
    return .join(url: url, code: positional[1], name: name)
  }

  /// Reads a stage number, `4` or `04`.
  private static func stage(_ word: String?) throws -> String? {
    guard let word else { return nil }
    guard (1...2).contains(word.count), word.allSatisfy(\.isASCII), let number = Int(word) else {
      throw CourseError.usage("\(word) is not a stage number; stages are numbered 01, 02, …")
    }
    return number < 10 ? "0\(number)" : "\(number)"
  }

  /// Reads a task number.
  private static func task(_ word: String?) throws -> Int? {
    guard let word else { return nil }
    guard word.allSatisfy(\.isASCII), let number = Int(word), number > 0 else {
      throw CourseError.usage("\(word) is not a task number; tasks are numbered 1, 2, …")
    }
    return number
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
      check    [NN] Run one stage's tests and show its failures task by task,
               with the doc section to read.
      hint     [NN] [TASK] Show the next hint for a task, one level at a time.
      diff     [NN] Show your lesson against the reference solution.
      reset    [NN] [--force] Put a lesson back as the course shipped it.
      watch    [NN] Run `check` again each time you save a lesson file.
      verify   Check the stage contract for every stage: each lesson fails
               without crashing or hanging, each solution passes, each lesson
               starts from the previous solution, each doc names real code,
               each task has its hints.
      serve    [--port N] Run the fake Catalog API on 127.0.0.1 for curl, an
               app or the simulator, and break its network live.
      demo     [--base-url URL] Run the finished app in the terminal against
               its own `serve`: load, go offline, edit, sync, narrated.
      propagate FILE [--dry-run] For course authors: copy an edit to a
               stage's file into every later stage that repeats it.
      doctor   [--json] [--name NICKNAME] Check this laptop before the day:
               Swift, SQLite, the clone, disk, ports, and how long the first
               build takes; its last line names you.
      join     URL CODE --name NICKNAME Send your progress to the
               instructor's classroom; `leave` stops it.
      classroom [--port N] [--address A] For the instructor: a live page of
               who is on which task and who is stuck.
      help     Show this text, or `course help <command>` for one command.

    NN is a stage number (4 or 04); without it, a command takes the first
    stage that is not solved yet.

    OPTIONS:
      -h, --help   Show help for the command.
      --build-system native|swiftbuild
                   Build and test with this build system instead of the one
                   your toolchain uses by default (Swift Build from Swift 6.4,
                   native before); COURSE_BUILD_SYSTEM does the same. The two
                   keep separate builds under .build: with the default,
                   `course` and your `swift test` share one.

    A suite that runs past \(limit) s counts as hung and is stopped, with every
    process it started. Ctrl-C stops the build or tests `course` started.
    Colour is used on a terminal only, and never when NO_COLOR is set.
    """

  /// The suite time limit, in whole seconds, for the help texts.
  private static let limit = Int(SwiftPackage.defaultSuiteTimeout)

  static let helpTopics: [String: String] = [
    "serve": ServeOptions.help,
    "classroom": ClassroomOptions.help,
    "doctor": """
    USAGE: swift run course doctor [--json] [--name NICKNAME]

    --name NICKNAME puts your name in the last line, the one you paste to the
    instructor (without it, the nickname this clone joined a classroom with).

    Checks that this laptop can run the course, before the first build (it
    needs no test target built), each check with ✔ or ✘ and the fix in one line:
      swift         Swift 6.2 or later (`swift --version`)
      build-system  the build system SwiftPM uses by default, and the one
                    `course` builds with
      sqlite        on Linux, SQLite's headers (libsqlite3-dev)
      xcode         on a Mac, Xcode selected rather than the Command Line Tools
      git           the folder is a git clone
      links         every Tests/SolutionLinks/NN-Name is a link to Tests/NN-Name
                    (a copy made without git may turn them into files)
      disk          free space for .build (and DerivedData on a Mac)
      build-folder  .build can be written
      port          port 8080, the default of `course serve`, is free
      compile       a one-file compile, timed, and from it an estimate of the
                    first full build on this laptop
    Exits 1 when something blocks the course, 0 otherwise (warnings included).
    Ends with one line to paste to the instructor; --json prints the checks,
    the result and that line as JSON instead. A learner in a classroom
    (`course join`) sends the result with each snapshot.
    """,
    "join": """
    USAGE: swift run course join URL CODE --name NICKNAME

    Joins the instructor's classroom (`course classroom` shows URL and CODE).
    From then on `course`, `course check`, `course hint` and each rerun of
    `course watch` send the instructor a snapshot: your stage, the tasks
    passing and failing, the task you are on and for how long, the hints you
    took, the faults your tests caught, your `course doctor` result. Never
    your code, file paths, user name or anything about this laptop.
    Sending waits at most a second and never fails a command; when the
    classroom cannot be reached, the next command sends the latest.
    NICKNAME is shown to the instructor: 1 to 24 characters.
    The membership is kept in .build/course/classroom.json.
    """,
    "leave": """
    USAGE: swift run course leave

    Leaves the classroom `course join` joined: the instructor's page drops
    your row, and nothing more is sent.
    """,
    "demo": DemoOptions.help,
    "status": """
    USAGE: swift run course [status]

    Builds the package with its tests (the first build takes a few minutes;
    progress is shown), runs each stage's lesson suite, and prints a table:
      not run yet   a fresh clone: the tests build in the background, and the
                    next run fills the row in
      solved        every test of LessonNN passes
      in progress   you have edited Lessons/NN-Name and N of M tests pass
      not started   Lessons/NN-Name is as the course shipped it (per git)
      broken        the lesson's suite crashed or hung (ran past \(limit) s); the
                    row names the test that was running
    Counts come from swift-testing's event stream; each suite's console output
    is kept in .build/course/<Module>.log.
    Each row also says how many hints you have used on the stage.
    Then it names the task to work on, the doc section that explains it and
    the commands that help.
    When no source file changed since the last build, the build is skipped,
    and each row is printed as soon as its suite has run.
    Exits 0 unless the package does not build, 130 when interrupted.
    """,
    "verify": """
    USAGE: swift run course verify [NN]

    Checks the stage contract for every stage in Lessons/ and Solutions/, or
    with NN for that stage alone (a minute or two instead of every suite):
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
      - from stage 02 on, the doc's `## Your decisions` asks at least 2
        decisions under `### ` headings, and Docs/NN-Name-Designs.md exists,
        where what the reference and the libraries chose goes
      - the doc names no type that only Solutions/NN-Name declares (none of
        the lesson, the tests or Sources/ names it), in prose or in code
      - the doc has at most 3,000 words before `## Tasks` and 5,000 in all,
        counted as `wc -w` counts them
      - LessonNN builds, fails at least one test, and crashes or hangs in none
        (a suite that runs past \(limit) s is stopped)
      - SolutionNN passes every test of the same suite
      - every task of the doc (`### Task N: Title` under `## Tasks`) has a
        `## Task N: Title` section with the same title and at least 2
        `### Hint N` sections in Docs/hints/NN-Name.md, and the doc itself
        shows no `<details><summary>Hint` blocks
    and, once for the course, that every relative link in README.md, Docs/
    and Faults/ names a file of the package, and its `#anchor` a heading there.
    Prints one block per stage, then the links, and exits 1 when any stage
    breaks the contract or any link does not resolve.
    Instructors and CI run this; learners rarely need it.
    """,
    "propagate": """
    USAGE: swift run course propagate FILE [--dry-run]

    For course authors, after an edit to a file of Solutions/NN-Name (or to a
    lesson file that is not the learner's): copies it into every later
    Lessons/MM-Name and Solutions/MM-Name that repeats it, by the rule
    `course verify` checks. Lessons/MM-Name/X repeats Solutions/(MM-1)/X unless
    Docs/MM-Name.md lists X under `## Your files`; Solutions/MM-Name/X repeats
    Lessons/MM-Name/X when the two were the same. An edit to a lesson's file
    goes first into the previous solution's, which that file repeats.
    It stops at the first stage with its own version (the doc lists the file,
    the solution changed it, or the stage is a capstone) and prints the edit
    to merge there by hand, as a diff; that stage's files are never written.
    It also names faults in Faults/MM-Name.md whose quoted text the new file
    no longer holds. Nothing outside Lessons/ and Solutions/ is written.
    FILE is relative to the package root (or the current folder).
    --dry-run prints the same and writes nothing.
    Exits 0 when every copy has the edit, 1 when something is left to merge
    or fix by hand. Then run `swift run course verify`.
    """,
    "check": """
    USAGE: swift run course check [NN]

    Builds the package (skipped when nothing changed since the last build),
    runs LessonNN's tests, and prints the failures grouped by task, in task
    order, each once, under the heading of the task and the doc section that
    explains it (Docs/NN-Name.md#task-3-title). Tests a stage skips until an
    earlier task is done are listed under that task. A last line counts the
    tests that passed, failed and were skipped; after a hang or a crash, also
    the tests that never ended and those never run, none of them passed. A
    hang names the tests that never ended, their task when their messages
    name one, and any leaked continuation the log reports.
    The task and message come from swift-testing's event stream, from the
    comment of each expectation ("Task 3 \"Title\" (Docs/NN-Name.md): …") or a
    stub's "Not done yet: Task 3 in Docs/NN-Name.md: …".
    Without NN: the first stage that is not solved.
    Exits 0 when every test passes, 1 otherwise.
    """,
    "hint": """
    USAGE: swift run course hint [NN] [TASK]

    Shows the next hint for a task of stage NN, one level per call, from a
    nudge to nearly the answer. Without TASK: the first task that fails
    (this runs the stage's tests). Without NN: the first stage not solved.
    `course` remembers how many hints you have seen, per stage and task, in
    .build/course/hints.json; delete it to start over. When every hint of a
    task has been shown, it shows the last one again and points to
    `course diff`.
    The hints live in Docs/hints/NN-Name.md, one `## Task N: Title` section
    per task with `### Hint 1`, `### Hint 2`, …, so the stage doc never shows
    an answer.
    """,
    "diff": """
    USAGE: swift run course diff [NN]

    Shows Lessons/NN-Name against Solutions/NN-Name as a unified diff (lines
    starting with + are the solution's), one file at a time: first the files
    the doc lists under `## Your files`, then any other file that differs.
    Runs `git diff --no-index`; nothing is built or changed.
    Without NN: the first stage that is not solved.
    """,
    "reset": """
    USAGE: swift run course reset [NN] [--force]

    Puts Lessons/NN-Name back as git has it committed: restores its tracked
    files (`git checkout HEAD -- Lessons/NN-Name`) and removes files you added
    there (`git clean -fd -- Lessons/NN-Name`). Nothing outside that folder
    is touched.
    When the folder has changes, it refuses and says how many lines would be
    lost, unless --force is given. `course diff NN` shows your work against
    the solution first; `git stash --include-untracked` keeps a copy.
    Without NN: the first stage that is not solved.
    """,
    "watch": """
    USAGE: swift run course watch [NN]

    Runs `course check NN` now and again each time a file under
    Lessons/NN-Name changes (it looks every half second). When every test
    passes, it congratulates you, names the next stage, and exits.
    Ctrl-C stops watching, and any build or test run it started.
    Without NN: the first stage that is not solved.
    """,
  ]
}
