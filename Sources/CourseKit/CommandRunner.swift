import Dispatch
import Foundation

/// What a finished command left behind.
public struct CommandResult: Sendable, Equatable {
  /// The exit status, or the signal number when a signal ended the process.
  public var status: Int32
  /// Standard output and standard error, interleaved as printed.
  public var output: String
  /// True when the runner stopped the command at its time limit.
  public var timedOut: Bool

  /// Makes a result from its parts.
  public init(status: Int32, output: String, timedOut: Bool = false) {
    self.status = status
    self.output = output
    self.timedOut = timedOut
  }
}

/// Runs a command-line tool; the seam that lets CourseKit's tests run no process.
public protocol CommandRunning: Sendable {
  /// Runs `arguments` (the first is the tool, found on PATH) in `directory`.
  ///
  /// - Parameters:
  ///   - timeout: After this many seconds the process is stopped.
  ///   - onLine: Called with each line of output as it arrives.
  /// - Throws: `CourseError.cannotRun` when the process cannot start.
  func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult
}

/// Runs real processes with Foundation's `Process`.
public struct ProcessCommandRunner: CommandRunning {
  /// Makes a runner.
  public init() {}

  public func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.currentDirectoryURL = directory
    var environment = ProcessInfo.processInfo.environment
    environment["NO_COLOR"] = "1"
    process.environment = environment
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    process.standardInput = FileHandle.nullDevice
    let finished = DispatchSemaphore(value: 0)
    process.terminationHandler = { _ in finished.signal() }
    do {
      try process.run()
    } catch {
      throw CourseError.cannotRun(command: arguments.joined(separator: " "), reason: "\(error)")
    }

    let collector = LineCollector(onLine: onLine)
    let reader = DispatchGroup()
    reader.enter()
    DispatchQueue.global().async {
      let handle = pipe.fileHandleForReading
      while true {
        let chunk = handle.availableData
        if chunk.isEmpty { break }
        collector.append(chunk)
      }
      collector.finish()
      reader.leave()
    }

    let timedOut = finished.wait(timeout: .now() + timeout) == .timedOut
    if timedOut {
      // SIGKILL, not terminate(): a child can inherit a signal mask that blocks SIGTERM.
      kill(process.processIdentifier, SIGKILL)
      finished.wait()
    }
    reader.wait()
    return CommandResult(status: process.terminationStatus, output: collector.text, timedOut: timedOut)
  }
}

/// Gathers a process's output and hands it on line by line.
///
/// `@unchecked Sendable`: one reader thread appends; `text` is read after it is done;
/// the lock guards both.
private final class LineCollector: @unchecked Sendable {
  private let lock = NSLock()
  private var data = Data()
  private var pending = Data()
  private let onLine: @Sendable (String) -> Void

  init(onLine: @escaping @Sendable (String) -> Void) { self.onLine = onLine }

  func append(_ chunk: Data) {
    let lines: [String] = lock.withLock {
      data.append(chunk)
      pending.append(chunk)
      var lines: [String] = []
      while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
        lines.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
        pending.removeSubrange(pending.startIndex...newline)
      }
      return lines
    }
    lines.forEach(onLine)
  }

  func finish() {
    let rest: String? = lock.withLock {
      defer { pending.removeAll() }
      return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
    }
    if let rest { onLine(rest) }
  }

  var text: String { lock.withLock { String(decoding: data, as: UTF8.self) } }
}
