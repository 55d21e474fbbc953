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
  /// Names of the tests that failed and ended, in the order of their first failure.
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
  /// Names of the tests that started and never ended, because the run hung or
  /// crashed: neither passed nor failed, whatever issues they recorded first.
  public var unfinishedTests: [String]
  /// Names of the tests that never started (nor were skipped) because the run
  /// was stopped or crashed first.
  public var notRunTests: [String]
  /// Lines of the console that point at the cause of a hang, such as the
  /// runtime's `SWIFT TASK CONTINUATION MISUSE: … leaked its continuation …`.
  public var clues: [String]
  /// Names of the tests a crash happened in: those its backtrace names, or every
  /// test that was running when it names none. Empty unless the run crashed.
  public var crashedTests: [String]
  /// The Swift files the crashed thread's backtrace runs through, innermost
  /// first (`ProductBroadcast.swift`): how a crash in code that no test names
  /// finds the task that writes it. Empty unless the run crashed.
  public var crashFiles: [String]

  /// Makes a result from its parts.
  public init(
    total: Int, failedTests: [String], skippedTests: [String] = [], ending: Ending, failures: [TestNote] = [],
    skips: [TestNote] = [], unfinishedTests: [String] = [], notRunTests: [String] = [], clues: [String] = [],
    crashedTests: [String] = [], crashFiles: [String] = []
  ) {
    self.total = total
    self.failedTests = failedTests
    self.skippedTests = skippedTests
    self.ending = ending
    self.failures = failures
    self.skips = skips
    self.unfinishedTests = unfinishedTests
    self.notRunTests = notRunTests
    self.clues = clues
    self.crashedTests = crashedTests
    self.crashFiles = crashFiles
  }

  /// Reads a run from its event stream.
  ///
  /// Counts come from the stream alone, never from the console, whose glyphs
  /// and wording change with the platform, the font and the toolchain. The
  /// console only supplies a line to quote when the run crashed, and the
  /// runtime's warnings about leaked continuations.
  /// - Parameters:
  ///   - eventStream: The JSON Lines swift-testing wrote (see `TestEventStream`).
  ///   - console: Everything `swift test` printed.
  ///   - stoppedAfter: The time limit, when the run was stopped at it; `nil` otherwise.
  public init(eventStream: String, console: String, stoppedAfter limit: Double?) {
    let stream = TestEventStream(jsonLines: eventStream)
    let running = stream.runningIDs.map(stream.name(of:))
    let lines = console.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    let ending: Ending
    var crashed: [String] = []
    var crashFiles: [String] = []
    if let limit {
      ending = .hung(running: running, limit: limit)
    } else if stream.runEnded {
      ending = .finished
    } else {
      let quote =
        lines.first(where: Self.isTrapLine).map(Self.trimmed) ?? lines.last { !$0.isEmpty } ?? "no output"
      crashed = running.isEmpty ? [] : Self.crashing(running, lines)
      crashFiles = Self.files(in: Self.crashedThread(lines))
      ending = .crashed(running.isEmpty ? quote : "\(quote), in \(Self.list(crashed))")
    }
    self.init(
      total: stream.functions.count,
      failedTests: stream.failedIDs.filter { !stream.runningIDs.contains($0) }.map(stream.name(of:)),
      skippedTests: stream.skippedIDs.map(stream.name(of:)), ending: ending,
      failures: stream.failures.map { TestNote(test: stream.name(of: $0.testID), messages: $0.messages) },
      skips: stream.skips.map { TestNote(test: stream.name(of: $0.testID), messages: $0.messages) },
      unfinishedTests: running, notRunTests: stream.unstartedIDs.map(stream.name(of:)),
      clues: lines.filter { $0.contains("SWIFT TASK CONTINUATION MISUSE") }.reduce(into: []) { unique, line in
        if !unique.contains(line) { unique.append(line) }
      }, crashedTests: crashed, crashFiles: crashFiles)
  }

  /// A line in which the runtime says why the process died: `Fatal error: …`
  /// (a force unwrap, `try!`, `fatalError`, a precondition), `*** Swift runtime
  /// failure: arithmetic overflow ***` (a trap without a message of its own, such
  /// as an overflow), or the backtracer's `*** Program crashed: … ***`.
  static func isTrapLine(_ line: String) -> Bool {
    line.contains("Fatal error") || line.contains("Program crashed") || line.contains("Swift runtime failure")
  }

  /// A trap line without the backtracer's `***` around it.
  private static func trimmed(_ line: String) -> String {
    line.trimmingCharacters(in: CharacterSet(charactersIn: "* "))
  }

  /// The running tests the crash's backtrace names, or every running test when it names none.
  ///
  /// Tests run in parallel, so many may be running when one crashes; the
  /// backtrace printed after the fatal line shows the crashing test's function.
  static func crashing(_ running: [String], _ lines: [String]) -> [String] {
    let backtrace = crashedThread(lines)
    let named = running.filter { name in
      let base = name.prefix { $0 != "(" }
      return backtrace.contains { $0.contains(".\(base)(") || $0.contains(" \(base)(") }
    }
    return named.isEmpty ? running : named
  }

  /// The lines after the trap line, narrowed to the crashed thread's backtrace
  /// when the backtracer printed every thread ("Thread 4 … crashed:" heads it).
  static func crashedThread(_ lines: [String]) -> ArraySlice<String> {
    var start = lines.firstIndex(where: isTrapLine) ?? lines.endIndex
    var end = lines.endIndex
    if let crashed = lines[start...].firstIndex(where: { $0.hasPrefix("Thread ") && $0.hasSuffix("crashed:") }) {
      start = crashed
      end = lines[(crashed + 1)...].firstIndex { $0.hasPrefix("Thread ") } ?? lines.endIndex
    }
    return lines[start..<end]
  }

  /// The Swift files backtrace lines name as `at /path/File.swift:3:5`, in order, each once.
  static func files(in backtrace: ArraySlice<String>) -> [String] {
    var files: [String] = []
    for line in backtrace {
      guard let at = line.range(of: " at ", options: .backwards) else { continue }
      let path = line[at.upperBound...].split(separator: ":").first.map(String.init) ?? ""
      let file = path.split(separator: "/").last.map(String.init) ?? ""
      if file.hasSuffix(".swift"), !files.contains(file) { files.append(file) }
    }
    return files
  }

  /// How many tests failed.
  public var failed: Int { failedTests.count }
  /// How many tests were skipped, waiting for an earlier task.
  public var skipped: Int { skippedTests.count }
  /// How many tests passed: ended without failing, and were not skipped.
  public var passed: Int { max(0, total - failed - skipped - unfinishedTests.count - notRunTests.count) }

  /// The counts in words: "3 passed, 5 failed, 2 skipped (10 tests)"; a run that
  /// did not finish adds the tests that never ended and those never run:
  /// "41 passed, 10 failed, 1 hung (stopped after 15 s), 0 skipped, 0 not run (52 tests)".
  public var tally: String { tally { _, text in text } }

  /// A part of `tally`, for colouring.
  enum TallyPart { case passed, failed, unfinished, skipped }

  /// `tally`, each part passed through `paint`.
  func tally(painting paint: (TallyPart, String) -> String) -> String {
    var parts = [paint(.passed, "\(passed) passed"), paint(.failed, "\(failed) failed")]
    switch ending {
    case .finished: break
    case .hung(_, let limit):
      parts.append(paint(.unfinished, "\(unfinishedTests.count) hung (stopped after \(Int(limit)) s)"))
    case .crashed:
      parts.append(paint(.unfinished, "\(unfinishedTests.count) cut short by the crash"))
    }
    parts.append(paint(.skipped, "\(skipped) skipped"))
    if ending != .finished || !notRunTests.isEmpty { parts.append(paint(.unfinished, "\(notRunTests.count) not run")) }
    return parts.joined(separator: ", ") + " (\(total) tests)"
  }
  /// True when the run finished, ran at least one test, and none failed or was skipped.
  public var allPassed: Bool { ending == .finished && total > 0 && failedTests.isEmpty && skippedTests.isEmpty }

  /// Says in a few words why the run has no counts, or `nil` when it finished.
  public var brokenReason: String? {
    switch ending {
    case .finished: nil
    case .crashed(let reason): "crashed: \(reason)"
    case .hung(let running, let limit) where running.isEmpty:
      "hung: stopped after \(Int(limit)) s, before its first test started"
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
    case 3: "\(names[0]), \(names[1]) and \(names[2])"
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
