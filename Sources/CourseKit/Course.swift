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
  let interruption: Interruption
  let pause: @Sendable (Double) -> Void
  /// How the learner started course, which every next step it prints repeats: `swift run course`, or `./course`.
  let invocation: String

  /// Makes the tool for one workspace.
  ///
  /// - Parameters:
  ///   - isTerminal: Whether standard output is a terminal; progress then redraws one line.
  ///   - write: Where output goes; each call is one chunk, newlines included.
  ///   - interruption: What Ctrl-C requests; `watch` stops when it is requested between runs.
  ///   - pause: Waits the given number of seconds between two looks at the files `watch` watches.
  ///   - invocation: How the learner started course, as the commands it suggests name it.
  public init(
    package: SwiftPackage, style: Style, isTerminal: Bool,
    write: @escaping @Sendable (String) -> Void,
    interruption: Interruption = Interruption(),
    pause: @escaping @Sendable (Double) -> Void = { Thread.sleep(forTimeInterval: $0) },
    invocation: String = Launcher.swiftRun
  ) {
    self.package = package
    self.style = style
    self.isTerminal = isTerminal
    self.write = write
    self.interruption = interruption
    self.pause = pause
    self.invocation = invocation
  }

  /// Runs the real tool: the current directory's workspace, real processes, standard output.
  public static func main(arguments: [String]) -> Int32 {
    let isTerminal = isatty(STDOUT_FILENO) == 1
    let style = Style.detect(environment: ProcessInfo.processInfo.environment, isTerminal: isTerminal)
    let write: @Sendable (String) -> Void = { text in
      FileHandle.standardOutput.write(Data(text.utf8))
    }
    // Read before `record` takes the launcher's variables out of the environment.
    let invocation = Launcher.invocation(environment: ProcessInfo.processInfo.environment)
    Launcher.record(executable: Bundle.main.executableURL, environment: ProcessInfo.processInfo.environment)
    do {
      let (buildSystemOption, words) = try BuildSystem.option(in: arguments)
      let command = try Command.parse(words)
      if case .help(let topic) = command {
        write(Command.helpText(topic) + "\n")
        return 0
      }
      let environment = ProcessInfo.processInfo.environment
      let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      let workspace = try Workspace.locate(currentDirectory: directory, environment: environment)
      let interruption = Interruption.onSignals()
      let runner = ProcessCommandRunner(interruption: interruption)
      let builtBy = Bundle.main.executableURL.flatMap { BuildSystem.builtCourse(executable: $0, root: workspace.root) }
      let buildSystem = try BuildSystem.resolve(option: buildSystemOption, environment: environment, builtBy: builtBy) {
        (try? BuildSystem.toolchainDefault(runner: runner, workspace: workspace, environment: environment)) ?? .native
      }
      let course = Course(
        package: SwiftPackage(workspace: workspace, runner: runner, buildSystem: buildSystem), style: style,
        isTerminal: isTerminal, write: write, interruption: interruption,
        invocation: invocation)
      return course.run(command)
    } catch {
      FileHandle.standardError.write(Data("\(error)\n".utf8))
      return error is CourseError ? 2 : 1
    }
  }

  /// Runs one parsed command and returns its exit status: 130, as shells do, when it was interrupted.
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
      case .verifyStage(let stage):
        return try verify(only: stage)
      case .check(let stage):
        return try check(stage)
      case .hint(let stage, let task):
        return try hint(stage: stage, task: task)
      case .diff(let stage):
        return try diff(stage)
      case .reset(let stage, let force):
        return try reset(stage, force: force)
      case .watch(let stage):
        return try watch(stage)
      case .serve(let options):
        return serve(options)
      case .demo(let options):
        return demo(options)
      case .propagate(let file, let dryRun):
        return try propagate(file, dryRun: dryRun)
      case .doctor(let json):
        return try doctor(json: json)
      case .classroom(let options):
        return classroom(options)
      case .join(let url, let code, let name):
        return join(url: url, code: code, name: name)
      case .leave:
        return leave()
      }
    } catch CourseError.interrupted {
      progressLine(nil)
      say(style.red("\(CourseError.interrupted)"))
      return 130
    } catch {
      say(style.red("\(error)"))
      return 1
    }
  }

  // MARK: Output

  /// Builds the package with its tests, unless no source file changed since the last build `course` ran.
  ///
  /// - Parameters:
  ///   - always: Build even when nothing changed, as `verify` does.
  ///   - stage: The one stage whose lesson suite will run. Under Swift Build,
  ///     which makes a test product of each test target, only that product and
  ///     what it needs are built once its test runner exists: the rest of the
  ///     course is neither compiled nor linked after an edit to the lesson.
  func build(always: Bool = false, only stage: Stage? = nil) throws {
    let product = stage.map { "\($0.lessonModule)Tests" }.flatMap { package.canBuildAlone($0) ? $0 : nil }
    if !always, package.isBuildCurrent(testProduct: product, forLessonSuite: stage != nil) { return }
    let started = Date()
    if !package.hasBeenBuilt {
      say(
        (product.map { "First build: compiling \($0) and the modules it needs takes a minute or more." }
          ?? "First build: compiling the whole course takes a few minutes.") + " Later runs take seconds.")
    }
    progressLine("Building…")
    let isTerminal = isTerminal
    let write = write
    // Off a terminal, one line per tenth of the build is enough.
    let lastTenth = Mutex(-1)
    try package.build(testProduct: product) { done, total in
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
    package.recordBuild(startedAt: started, testProduct: product)
  }

  /// Shows a transient status line on a terminal; `nil` clears it.
  func progressLine(_ text: String?) {
    guard isTerminal else { return }
    write("\r\u{1B}[2K" + (text ?? ""))
  }

  func say(_ text: String) { write(text + "\n") }
}
