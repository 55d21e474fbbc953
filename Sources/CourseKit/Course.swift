import Foundation
import Synchronization

/// The `course` command-line tool: parses arguments, runs a command, returns the exit status.
///
/// The executable is one line around `Course.main`; everything it does lives here
/// so CourseKit's tests can drive it with a stub `CommandRunning`.
public struct Course: Sendable {
  let package: SwiftPackage
  let style: Style
  let isTerminal: Bool
  let write: @Sendable (String) -> Void

  /// Makes the tool for one workspace.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether standard output is a terminal; progress then redraws one line.
  ///   - write: Where output goes; each call is one chunk, newlines included.
  public init(
    package: SwiftPackage, style: Style, isTerminal: Bool,
    write: @escaping @Sendable (String) -> Void
  ) {
    self.package = package
    self.style = style
    self.isTerminal = isTerminal
    self.write = write
  }

  /// Runs the real tool: the current directory's workspace, real processes, standard output.
  public static func main(arguments: [String]) -> Int32 {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    let style = Style.detect(environment: ProcessInfo.processInfo.environment, isTerminal: isTerminal)
    let write: @Sendable (String) -> Void = { text in
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    do {
      let command = try Command.parse(arguments)
      if case .help(let topic) = command {
        write(Command.helpText(topic) + "\n")
        return 0
      }
      let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      let workspace = try Workspace.find(from: directory)
      let course = Course(
        package: SwiftPackage(workspace: workspace, runner: ProcessCommandRunner()),
        style: style, isTerminal: isTerminal, write: write)
      return course.run(command)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      return error is CourseError ? 2 : 1
    }
  }

  /// Runs one parsed command and returns its exit status.
  public func run(_ command: Command) -> Int32 {
    do {
      switch command {
      case .help(let topic):
        say(Command.helpText(topic))
        return 0
      case .status:
        return try status()
      case .verify:
        return try verify()
      case .serve(let options):
        return serve(options)
      }
    } catch {
      say(style.red("\(error)"))
      return 1
    }
  }

  // MARK: status

  func status() throws -> Int32 {
    let stages = package.workspace.stages()
    say(style.bold("Repository & Data Source patterns in Swift") + " · \(stages.count) stage(s)")
    try build()
    var rows: [(Stage, StageProgress)] = []
    for stage in stages {
      progressLine("Running \(stage.lessonModule)'s tests…")
      let result = try package.runSuite("\(stage.lessonModule)Tests")
      rows.append((stage, StageProgress(result: result, edited: package.lessonHasEdits(stage))))
    }
    progressLine(nil)
    say("")
    for (stage, progress) in rows { say(row(stage, progress)) }
    let solved = rows.filter { $0.1.isSolved }.count
    say("")
    say(Self.progressBar(solved: solved, total: rows.count) + " \(solved) of \(rows.count) solved")
    say("")
    say(nextStep(rows))
    return 0
  }

  private func row(_ stage: Stage, _ progress: StageProgress) -> String {
    let name = "\(stage.number)  \(stage.name)".padding(toLength: 30, withPad: " ", startingAt: 0)
    switch progress {
    case .solved(let total): return "  \(name) \(style.green("✔ solved"))        \(total)/\(total) tests pass"
    case .inProgress(let passed, let total):
      return "  \(name) \(style.yellow("● in progress"))   \(passed)/\(total) tests pass"
    case .notStarted(let passed, let total):
      return "  \(name) \(style.dim("○ not started"))   \(passed)/\(total) tests pass"
    case .broken(let reason): return "  \(name) \(style.red("✘ broken"))        \(reason)"
    }
  }

  static func progressBar(solved: Int, total: Int, width: Int = 28) -> String {
    let filled = total == 0 ? 0 : width * solved / total
    return "[" + String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled) + "]"
  }

  private func nextStep(_ rows: [(Stage, StageProgress)]) -> String {
    guard let (stage, progress) = rows.first(where: { !$0.1.isSolved }) else {
      return style.bold("Every stage is solved.")
        + " Compare your code with Solutions/, or run `swift test --skip Lesson` to see every reference pass."
    }
    let run = "swift test --filter \(stage.lessonModule)"
    if case .broken = progress {
      return style.bold("Next:") + " \(stage.lessonModule)'s tests crashed or hung. Run `\(run)` and look at the "
        + "last test that started: a force unwrap, fatalError or an await that never returns is the usual cause."
    }
    return style.bold("Next:") + " read \(stage.doc), then run\n    \(run)\n"
      + "  and fix what the first failure names. Compare with `swift test --filter \(stage.solutionModule)` when stuck."
  }

  // MARK: verify

  func verify() throws -> Int32 {
    let stages = package.workspace.stages()
    say(style.bold("Checking the stage contract") + " for \(stages.count) stage(s)")
    try build()
    var broken: [Stage] = []
    for stage in stages {
      progressLine("Running \(stage.lessonModule) and \(stage.solutionModule)…")
      let lesson = try package.runSuite("\(stage.lessonModule)Tests")
      let solution = try package.runSuite("\(stage.solutionModule)Tests")
      progressLine(nil)
      let verdict = StageVerdict.judge(
        stage: stage,
        missingFiles: package.workspace.requiredFiles(of: stage).filter { !$0.exists }.map(\.path),
        fatalErrorFiles: package.workspace.lessonFilesCallingFatalError(of: stage),
        lesson: lesson, solution: solution)
      say(style.bold("Stage \(stage.folder)"))
      for check in verdict.checks {
        say("  " + (check.ok ? style.green("✔") : style.red("✘")) + " " + check.text)
      }
      if !verdict.keepsContract { broken.append(stage) }
    }
    say("")
    if stages.isEmpty {
      say(style.red("No stages found in Lessons/ or Solutions/."))
      return 1
    }
    if broken.isEmpty {
      say(style.green("All \(stages.count) stage(s) keep the contract."))
      return 0
    }
    say(style.red("\(broken.count) stage(s) break the contract: \(broken.map(\.folder).joined(separator: ", "))"))
    return 1
  }

  // MARK: Output

  private func build() throws {
    if !package.hasBeenBuilt {
      say("First build: compiling the whole course takes a few minutes. Later runs take seconds.")
    }
    progressLine("Building…")
    let isTerminal = isTerminal
    let write = write
    // Off a terminal, one line per tenth of the build is enough.
    let lastTenth = Mutex(-1)
    try package.build { done, total in
      if isTerminal {
        write("\r\u{1B}[2KBuilding… \(done)/\(total)")
        return
      }
      let tenth = total == 0 ? 0 : done * 10 / total
      let isNewTenth = lastTenth.withLock { last in
        defer { last = max(last, tenth) }
        return tenth > last
      }
      if isNewTenth { write("Building… \(done)/\(total)\n") }
    }
    progressLine(nil)
  }

  /// Shows a transient status line on a terminal; `nil` clears it.
  private func progressLine(_ text: String?) {
    guard isTerminal else { return }
    write("\r\u{1B}[2K" + (text ?? ""))
  }

  private func say(_ text: String) { write(text + "\n") }
}
