import Foundation

/// Runs real processes, each in a process group of its own, and stops a whole group when it must.
///
/// A command is stopped when it runs past its time limit or when `course` is
/// interrupted. Stopping sends SIGINT to the command's group and to the groups
/// of everything it started (SwiftPM answers SIGINT by stopping its test
/// runner, which lives in a group of its own); after `gracePeriod` seconds,
/// whatever is left gets SIGKILL. So `run` returns at most `timeout +
/// gracePeriod` seconds after it started (plus at most one second to collect
/// the last output), and leaves no process behind.
public struct ProcessCommandRunner: CommandRunning {
  /// What tells a running command to stop early.
  public let interruption: Interruption
  /// Seconds between SIGINT and SIGKILL when a command is stopped.
  public var gracePeriod: Double

  /// Makes a runner.
  ///
  /// - Parameters:
  ///   - interruption: When requested, the running command is stopped and `run` throws.
  ///   - gracePeriod: Seconds a stopped command gets to finish after SIGINT.
  public init(interruption: Interruption = Interruption(), gracePeriod: Double = 2) {
    self.interruption = interruption
    self.gracePeriod = gracePeriod
  }

  /// Whether this platform lets `course` start processes: macOS and Linux.
  ///
  /// The package also builds for iOS, so that Xcode with a simulator selected
  /// runs the stage suites; there `run` throws `CourseError.cannotRun`, and the
  /// tests that start real processes are skipped.
  public static var canStartProcesses: Bool {
    #if os(macOS) || os(Linux)
      true
    #else
      false
    #endif
  }

  /// Why `run` refuses where `canStartProcesses` is false.
  static let unsupportedPlatform =
    "course runs on macOS and Linux; on iOS it starts no process (run it from a Mac's Terminal)"

  public func start(_ arguments: [String], in directory: URL, log: URL) throws {
    let command = arguments.joined(separator: " ")
    #if os(macOS) || os(Linux)
      try? FileManager.default.createDirectory(at: log.deletingLastPathComponent(), withIntermediateDirectories: true)
      guard FileManager.default.createFile(atPath: log.path, contents: nil),
        let output = FileHandle(forWritingAtPath: log.path)
      else { throw CourseError.cannotRun(command: command, reason: "cannot write \(log.path)") }
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
      process.arguments = arguments
      process.currentDirectoryURL = directory
      process.standardInput = FileHandle.nullDevice
      process.standardOutput = output
      process.standardError = output
      do {
        try process.run()
      } catch {
        throw CourseError.cannotRun(command: command, reason: "\(error)")
      }
    #else
      throw CourseError.cannotRun(command: command, reason: Self.unsupportedPlatform)
    #endif
  }

  public func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    if interruption.isRequested { throw CourseError.interrupted }
    // The environment as it is: SwiftPM's manifest cache is keyed by it, so the
    // learner's own `swift test` and `course` share one cache.
    let child = try ChildProcess(arguments, in: directory, environment: ProcessInfo.processInfo.environment)
    var lines = LineBuffer()
    func take(_ output: ChildProcess.Output) -> Bool {
      guard case .data(let chunk) = output else { return false }
      lines.append(chunk).forEach(onLine)
      return true
    }

    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(timeout)
    var stopping: (since: ContinuousClock.Instant, groups: Set<pid_t>, killed: Bool)?
    var timedOut = false
    var status = child.exitStatus()
    while status == nil {
      _ = take(child.waitForOutput(upTo: 50))
      status = child.exitStatus()
      guard status == nil else { break }
      if var stop = stopping {
        if !stop.killed, clock.now - stop.since >= .seconds(gracePeriod) {
          stop.groups.formUnion(ProcessTree.descendantGroups(of: child.pid))
          child.signalGroups(SIGKILL, also: stop.groups)
          stop.killed = true
          stopping = stop
        }
      } else if clock.now >= deadline || interruption.isRequested {
        timedOut = !interruption.isRequested
        // Find the groups while the tree is whole: once the command is gone, its orphans cannot be traced.
        let groups = ProcessTree.descendantGroups(of: child.pid)
        child.signalGroups(SIGINT, also: groups)
        stopping = (clock.now, groups, false)
      }
    }
    if let stop = stopping {
      // Whatever outlived the command, such as a test runner that ignored SIGINT.
      child.signalGroups(SIGKILL, also: stop.groups)
    }
    // Collect what is left in the pipe, for one second at most: a process outside
    // the groups may hold it open, silent or not.
    let drained = clock.now + .seconds(1)
    while child.outputIsOpen, clock.now < drained, take(child.waitForOutput(upTo: 200)) {}
    if let last = lines.finish() { onLine(last) }
    if stopping != nil, !timedOut { throw CourseError.interrupted }
    return CommandResult(status: status ?? 0, output: lines.text, timedOut: timedOut)
  }
}
