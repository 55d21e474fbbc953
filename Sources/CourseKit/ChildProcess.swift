import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// One running command, started in a process group of its own, with its output on a pipe.
///
/// `course` must be able to stop everything a command started: `swift test`
/// starts the test runner, and a hung test keeps the runner alive after
/// `swift test` itself is gone. Foundation's `Process` cannot start a child in a
/// new process group, so this type calls `posix_spawn` with
/// `POSIX_SPAWN_SETPGROUP`. The child's group id is its pid.
///
/// The instance owns the pid and the read end of the pipe: it closes the pipe in
/// `deinit`, and it reaps the child through `exitStatus()`. Not `Sendable`: one
/// thread drives it.
final class ChildProcess {
  /// The child's pid, which is also its process group id.
  let pid: pid_t
  private var output: Int32
  private var exited: Int32?

  /// Starts `arguments` (the first is the tool, found on PATH) in `directory`,
  /// with standard input from /dev/null and standard output and error on one pipe.
  ///
  /// `posix_spawn` cannot change the directory portably (glibc hides
  /// `posix_spawn_file_actions_addchdir_np`), so `/bin/sh` does: it changes to
  /// `directory` and `exec`s the command, which keeps the pid and the group.
  ///
  /// - Throws: `CourseError.cannotRun` when the process cannot start.
  init(_ arguments: [String], in directory: URL, environment: [String: String]) throws {
    let command = arguments.joined(separator: " ")
    #if os(macOS) || os(Linux)
      (pid, output) = try Self.spawn(arguments, command: command, in: directory, environment: environment)
    #else
      // iOS and the other Darwin platforms: the package builds there (Xcode with a
      // simulator selected) so that the stage suites run, but `course` is a tool for
      // the Mac or a Linux machine and starts no process.
      throw CourseError.cannotRun(command: command, reason: ProcessCommandRunner.unsupportedPlatform)
    #endif
  }

  #if os(macOS) || os(Linux)
    /// Starts the command; returns its pid and the read end of its output pipe.
    private static func spawn(
      _ arguments: [String], command: String, in directory: URL, environment: [String: String]
    ) throws -> (pid_t, Int32) {
      var fds: [Int32] = [-1, -1]
      guard pipe(&fds) == 0 else {
        throw CourseError.cannotRun(command: command, reason: String(cString: strerror(errno)))
      }
      // Neither end may leak into a process spawned meanwhile; the dup2 below clears the flag on 1 and 2.
      _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
      _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
      defer { close(fds[1]) }

      #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t? = nil
        var attributes: posix_spawnattr_t? = nil
      #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
      #endif
      posix_spawn_file_actions_init(&actions)
      defer { posix_spawn_file_actions_destroy(&actions) }
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
      posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
      posix_spawn_file_actions_adddup2(&actions, fds[1], 2)

      posix_spawnattr_init(&attributes)
      defer { posix_spawnattr_destroy(&attributes) }
      // `course` ignores SIGINT and friends while it runs (see `Interruption`), and an
      // ignored signal stays ignored across exec: give the child the defaults back.
      var defaults = sigset_t()
      sigemptyset(&defaults)
      for signal in [SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGPIPE] { sigaddset(&defaults, signal) }
      var noneBlocked = sigset_t()
      sigemptyset(&noneBlocked)
      posix_spawnattr_setsigdefault(&attributes, &defaults)
      posix_spawnattr_setsigmask(&attributes, &noneBlocked)
      posix_spawnattr_setpgroup(&attributes, 0)
      var flags = Int32(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
      #if canImport(Darwin)
        flags |= Int32(POSIX_SPAWN_CLOEXEC_DEFAULT)
      #endif
      posix_spawnattr_setflags(&attributes, Int16(flags))

      let argv = ["/bin/sh", "-c", "cd -- \"$0\" && exec \"$@\"", directory.path] + arguments
      let env = environment.map { "\($0.key)=\($0.value)" }
      var pid = pid_t()
      let status = withCStrings(argv) { argv in
        withCStrings(env) { env in posix_spawn(&pid, "/bin/sh", &actions, &attributes, argv, env) }
      }
      guard status == 0 else {
        close(fds[0])
        throw CourseError.cannotRun(command: command, reason: String(cString: strerror(status)))
      }
      return (pid, fds[0])
    }
  #endif

  deinit {
    if output >= 0 { close(output) }
  }

  /// What a wait for output found.
  enum Output {
    /// Bytes the command wrote.
    case data(Data)
    /// Nothing arrived in time.
    case nothingYet
    /// Every writer has closed the pipe.
    case end
  }

  /// Waits up to `milliseconds` for output and returns what arrived.
  ///
  /// Once the pipe has ended, it still waits, so that a caller polling for the
  /// child's exit in a loop does not spin.
  func waitForOutput(upTo milliseconds: Int32) -> Output {
    guard output >= 0 else {
      _ = poll(nil, 0, min(milliseconds, 10))
      return .end
    }
    var descriptor = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
    guard poll(&descriptor, 1, milliseconds) > 0 else { return .nothingYet }
    var buffer = [UInt8](repeating: 0, count: 65_536)
    let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
    if count > 0 { return .data(Data(buffer[0..<count])) }
    if count < 0, errno == EINTR || errno == EAGAIN { return .nothingYet }
    close(output)
    output = -1
    return .end
  }

  /// Whether the pipe is still open: some process of the command may still write to it.
  var outputIsOpen: Bool { output >= 0 }

  /// The exit status once the child has ended (the signal number if a signal ended it), reaping it;
  /// `nil` while it runs.
  func exitStatus() -> Int32? {
    if let exited { return exited }
    var status: Int32 = 0
    let reaped = waitpid(pid, &status, WNOHANG)
    if reaped == -1, errno == ECHILD {
      // Someone else reaped it (SIGCHLD ignored): it has ended, with a status nobody can know.
      exited = 1
      return exited
    }
    guard reaped == pid else { return nil }
    // WIFEXITED and friends are macros Swift cannot import.
    let signal = status & 0x7f
    exited = signal == 0 ? (status >> 8) & 0xff : signal
    return exited
  }

  /// Sends `signal` to the child's process group and to every group in `groups`.
  ///
  /// Never signals `course`'s own group or the groups of pid 0 and 1.
  func signalGroups(_ signal: Int32, also groups: Set<pid_t>) {
    let own = getpgrp()
    for group in groups.union([pid]) where group > 1 && group != own {
      kill(-group, signal)
    }
  }
}

/// Calls `body` with a NULL-terminated C array of the strings, valid for the call only.
private func withCStrings<Result>(
  _ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Result
) -> Result {
  let pointers = strings.map { strdup($0) } + [nil]
  defer {
    for pointer in pointers { free(pointer) }
  }
  return pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
}
