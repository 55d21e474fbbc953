import Foundation

/// What one run of a stage's suite came to, read from swift-testing's event stream.
public struct SuiteResult: Sendable, Equatable {
  /// How the run ended.
  public enum Ending: Sendable, Equatable {
    /// The test run reached its end: every test ran.
    case finished
    /// The process died before the run ended, as a crash or a `fatalError` does.
    case crashed(String)
    /// The run passed its time limit of `limit` seconds and was stopped while
    /// the tests `running` had started and not ended.
    case hung(running: [String], limit: Double)
  }

  /// How many tests ran (a parameterized test counts once, however many cases it has).
  public var total: Int
  /// Names of the tests that failed, in the order of their first failure.
  public var failedTests: [String]
  /// Names of the tests that were skipped, in order: a stage skips a test that
  /// needs an earlier task until that task is done, so it is not passed either.
  public var skippedTests: [String]
  /// How the run ended.
  public var ending: Ending
  /// Every failing issue, in the order the run recorded them (the parallel runner shuffles tests).
  public var failures: [TestNote]
  /// What each skipped test's skip said, in order.
  public var skips: [TestNote]

  /// Makes a result from its parts.
  public init(
    total: Int, failedTests: [String], skippedTests: [String] = [], ending: Ending, failures: [TestNote] = [],
    skips: [TestNote] = []
  ) {
    self.total = total
    self.failedTests = failedTests
    self.skippedTests = skippedTests
    self.ending = ending
    self.failures = failures
    self.skips = skips
  }

  /// Reads a run from its event stream.
  ///
  /// Counts come from the stream alone, never from the console, whose glyphs
  /// and wording change with the platform, the font and the toolchain. The
  /// console only supplies a line to quote when the run crashed.
  /// - Parameters:
  ///   - eventStream: The JSON Lines swift-testing wrote (see `TestEventStream`).
  ///   - console: Everything `swift test` printed.
  ///   - stoppedAfter: The time limit, when the run was stopped at it; `nil` otherwise.
  public init(eventStream: String, console: String, stoppedAfter limit: Double?) {
    let stream = TestEventStream(jsonLines: eventStream)
    let running = stream.runningIDs.map(stream.name(of:))
    let ending: Ending
    if let limit {
      ending = .hung(running: running, limit: limit)
    } else if stream.runEnded {
      ending = .finished
    } else {
      let lines = console.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
      let quote =
        lines.first { $0.contains("Fatal error") || $0.contains("Program crashed") } ?? lines.last { !$0.isEmpty }
        ?? "no output"
      ending = .crashed(running.isEmpty ? quote : "\(quote), in \(Self.list(Self.crashing(running, lines)))")
    }
    self.init(
      total: stream.functions.count, failedTests: stream.failedIDs.map(stream.name(of:)),
      skippedTests: stream.skippedIDs.map(stream.name(of:)), ending: ending,
      failures: stream.failures.map { TestNote(test: stream.name(of: $0.testID), messages: $0.messages) },
      skips: stream.skips.map { TestNote(test: stream.name(of: $0.testID), messages: $0.messages) })
  }

  /// The running tests the crash's backtrace names, or every running test when it names none.
  ///
  /// Tests run in parallel, so many may be running when one crashes; the
  /// backtrace printed after the fatal line shows the crashing test's function.
  static func crashing(_ running: [String], _ lines: [String]) -> [String] {
    var start = lines.firstIndex { $0.contains("Fatal error") || $0.contains("Program crashed") } ?? lines.endIndex
    var end = lines.endIndex
    // Swift's backtracer prints every thread; "Thread 4 … crashed:" heads the one that matters.
    if let crashed = lines[start...].firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) {
      start = crashed
      end = lines[(crashed + 1)...].firstIndex { $0.hasPrefix("Thread ") } ?? lines.endIndex
    }
    let backtrace = lines[start..<end]
    let named = running.filter { name in
      let base = name.prefix { $0 != "(" }
      return backtrace.contains { $0.contains(".\(base)(") || $0.contains(" \(base)(") }
    }
    return named.isEmpty ? running : named
  }

  /// How many tests failed.
  public var failed: Int { failedTests.count }
  /// How many tests were skipped, waiting for an earlier task.
  public var skipped: Int { skippedTests.count }
  /// How many tests passed: neither failed nor skipped.
  public var passed: Int { max(0, total - failed - skipped) }
  /// True when the run finished, ran at least one test, and none failed or was skipped.
  public var allPassed: Bool { ending == .finished && total > 0 && failedTests.isEmpty && skippedTests.isEmpty }

  /// Says in a few words why the run has no counts, or `nil` when it finished.
  public var brokenReason: String? {
    switch ending {
    case .finished: nil
    case .crashed(let reason): "crashed: \(reason)"
    case .hung(let running, let limit) where running.isEmpty:
      "hung: stopped after \(Int(limit)) s, before any test started"
    case .hung(let running, let limit):
      "hung: \(Self.list(running)) still running when stopped after \(Int(limit)) s"
    }
  }

  /// "a()", "a() and b()", or "a(), b() and 3 more".
  static func list(_ names: [String]) -> String {
    switch names.count {
    case 0: "no test"
    case 1: names[0]
    case 2: "\(names[0]) and \(names[1])"
    default: "\(names[0]), \(names[1]) and \(names.count - 2) more"
    }
  }
}

/// What the run said about one test: an issue's messages, or a skip's.
public struct TestNote: Sendable, Equatable {
  /// The test's name, such as `loadsInOrder()`.
  public var test: String
  /// The event's messages, in order: for an issue, the expectation and then each comment.
  public var messages: [String]

  /// Makes a note from its parts.
  public init(test: String, messages: [String]) {
    self.test = test
    self.messages = messages
  }
}
