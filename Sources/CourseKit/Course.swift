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
      let runner = ProcessCommandRunner(interruption: Interruption.onSignals())
      let course = Course(
        package: SwiftPackage(workspace: workspace, runner: runner), style: style, isTerminal: isTerminal,
        write: write)
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

  func build() throws {
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
  func progressLine(_ text: String?) {
    guard isTerminal else { return }
    write("\r\u{1B}[2K" + (text ?? ""))
  }

  func say(_ text: String) { write(text + "\n") }
}
