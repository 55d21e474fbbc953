import CourseKit
import Foundation
import Synchronization

/// Answers `swift` and `git` with canned runs and records what was asked.
///
/// For `swift test`, it writes the canned event stream where
/// `--experimental-event-stream-output` asks, as swift-testing would.
final class StubCommandRunner: CommandRunning {
  let answers: @Sendable ([String]) -> CannedRun
  private let calls = Mutex<[[String]]>([])

  init(answers: @escaping @Sendable ([String]) -> CannedRun) { self.answers = answers }

  var recorded: [[String]] { calls.withLock { $0 } }

  func run(
    _ arguments: [String], in directory: URL, timeout: Double,
    onLine: @escaping @Sendable (String) -> Void
  ) throws -> CommandResult {
    calls.withLock { $0.append(arguments) }
    let canned = answers(arguments)
    if let option = arguments.firstIndex(of: "--experimental-event-stream-output"), let events = canned.events {
      try writeFixture(events, to: URL(fileURLWithPath: arguments[option + 1]))
    }
    for line in canned.result.output.split(separator: "\n") { onLine(String(line)) }
    return canned.result
  }

  /// Records the command as started; it writes nothing to `log`.
  func start(_ arguments: [String], in directory: URL, log: URL) throws {
    calls.withLock { $0.append(["start"] + arguments) }
  }

  /// The value of `--filter` in a `swift test` command line, such as `Lesson01Tests\.`.
  static func filter(_ arguments: [String]) -> String? {
    arguments.firstIndex(of: "--filter").map { arguments[$0 + 1] }
  }
}
