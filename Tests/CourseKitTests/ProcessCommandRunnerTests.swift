import CourseKit
import Foundation
import Synchronization
import Testing

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// These tests start real processes and so take real time: a fraction of a second each.
@Suite(.enabled(if: ProcessCommandRunner.canStartProcesses, "course starts processes on macOS and Linux only"))
struct ProcessCommandRunnerTests {
  let directory = FileManager.default.temporaryDirectory

  @Test func capturesOutputAndStatus() throws {
    let lines = Mutex<[String]>([])
    let result = try ProcessCommandRunner().run(
      ["sh", "-c", "echo one; echo two >&2; exit 3"], in: directory, timeout: 30
    ) { line in lines.withLock { $0.append(line) } }
    #expect(result.status == 3)
    #expect(lines.withLock { $0 }.sorted() == ["one", "two"])
    #expect(!result.timedOut)
  }

  @Test func runsInTheGivenDirectory() throws {
    let result = try ProcessCommandRunner().run(["pwd"], in: directory, timeout: 30, onLine: { _ in })
    let expected = directory.resolvingSymlinksInPath().path
    #expect(
      URL(fileURLWithPath: result.output.trimmingCharacters(in: .newlines)).resolvingSymlinksInPath().path
        == expected)
  }

  @Test func stopsACommandThatRunsPastItsTimeLimit() throws {
    let result = try ProcessCommandRunner(gracePeriod: 0.5).run(
      ["sleep", "30"], in: directory, timeout: 0.2, onLine: { _ in })
    #expect(result.timedOut)
  }

  /// A command that ignores SIGINT and SIGTERM and whose child holds the output pipe,
  /// as a hung test runner under `swift test` does.
  @Test func stopsACommandThatIgnoresSIGINTWithItsGrandchildInTime() throws {
    let script = #"trap "" INT TERM; sleep 60 & echo $!; echo $$; wait"#
    let (result, seconds) = try timed {
      try ProcessCommandRunner(gracePeriod: 0.5).run(["sh", "-c", script], in: directory, timeout: 0.5) { _ in }
    }
    #expect(result.timedOut)
    #expect(seconds < 5, "the limit is 0.5 s and the grace period 0.5 s, yet run took \(seconds) s")
    let pids = result.output.split(separator: "\n").compactMap { pid_t($0) }
    #expect(pids.count == 2, "the script prints the pids of sleep and of sh; got \(result.output)")
    for pid in pids { #expect(Self.isGone(pid), "process \(pid) survived the stop") }
  }

  /// `swift test` starts its test runner in a process group of its own; the runner must be stopped too.
  ///
  /// Perl makes the group (POSIX `sh` cannot without a terminal), ignores SIGINT and SIGTERM, and
  /// becomes `sleep`; perl ships with macOS and with every Debian and Ubuntu.
  @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/perl")))
  func stopsADescendantInAProcessGroupOfItsOwn() throws {
    let perl = #"$SIG{INT} = $SIG{TERM} = "IGNORE"; setpgrp(0, 0); exec "sleep", "60""#
    let script = #"trap "" INT TERM; /usr/bin/perl -e '\#(perl)' & echo $!; wait"#
    let (result, seconds) = try timed {
      try ProcessCommandRunner(gracePeriod: 0.5).run(["sh", "-c", script], in: directory, timeout: 0.5) { _ in }
    }
    #expect(result.timedOut)
    #expect(seconds < 5, "run took \(seconds) s")
    let pid = try #require(result.output.split(separator: "\n").compactMap { pid_t($0) }.first, "\(result.output)")
    #expect(Self.isGone(pid), "process \(pid), in a group of its own, survived the stop")
  }

  @Test func anInterruptionStopsTheRunningCommandAndThrows() throws {
    let interruption = Interruption()
    let script = #"trap "" INT TERM; sleep 60 & echo $!; wait"#
    let pid = Mutex<pid_t?>(nil)
    let start = ContinuousClock.now
    #expect(throws: CourseError.interrupted) {
      try ProcessCommandRunner(interruption: interruption, gracePeriod: 0.5).run(
        ["sh", "-c", script], in: directory, timeout: 60
      ) { line in
        pid.withLock { $0 = pid_t(line) }
        interruption.request()
      }
    }
    let seconds = Self.seconds(ContinuousClock.now - start)
    #expect(seconds < 5, "an interrupted run must stop within its grace period; took \(seconds) s")
    let sleeper = try #require(pid.withLock { $0 }, "the script prints the pid of sleep")
    #expect(Self.isGone(sleeper), "process \(sleeper) survived the interruption")
    #expect(throws: CourseError.interrupted, "once interrupted, nothing new starts") {
      try ProcessCommandRunner(interruption: interruption).run(["true"], in: directory, timeout: 5) { _ in }
    }
  }

  private func timed<T>(_ body: () throws -> T) rethrows -> (T, Double) {
    let start = ContinuousClock.now
    let value = try body()
    return (value, Self.seconds(ContinuousClock.now - start))
  }

  private static func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }

  /// Whether a process has ended, allowing a moment for its new parent to reap it.
  /// A zombie has ended; on Linux, /proc tells one apart.
  static func isGone(_ pid: pid_t) -> Bool {
    for _ in 0..<50 {
      if kill(pid, 0) != 0 { return true }
      if let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")"),
        stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
      {
        return true
      }
      usleep(20_000)
    }
    return false
  }
}
