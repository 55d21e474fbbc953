import Foundation

/// What one run of a stage's suite came to, read from `swift test` output.
public struct SuiteResult: Sendable, Equatable {
  /// How the run ended.
  public enum Ending: Sendable, Equatable {
    /// The test run printed its summary: every test ran.
    case finished
    /// The process died before the summary, as a crash or a `fatalError` does.
    case crashed(String)
    /// The run passed its time limit and was stopped.
    case timedOut
  }

  /// How many tests ran (parameterized tests count once).
  public var total: Int
  /// Names of the tests that failed, in the order they finished.
  public var failedTests: [String]
  /// How the run ended.
  public var ending: Ending

  /// Makes a result from its parts.
  public init(total: Int, failedTests: [String], ending: Ending) {
    self.total = total
    self.failedTests = failedTests
    self.ending = ending
  }

  /// How many tests failed.
  public var failed: Int { failedTests.count }
  /// How many tests passed.
  public var passed: Int { max(0, total - failed) }
  /// True when the run finished, ran at least one test and none failed.
  public var allPassed: Bool { ending == .finished && total > 0 && failedTests.isEmpty }

  /// Reads the output of `swift test` for one stage's suite.
  ///
  /// Swift Testing prints `✘ Test name() failed after …` for each failing test
  /// and closes with `Test run with N tests in M suites passed|failed …`. No
  /// closing line means the process died first.
  /// - Parameters:
  ///   - output: Everything the run printed, standard error included.
  ///   - timedOut: Whether the runner stopped the process at its time limit.
  public static func parse(_ output: String, timedOut: Bool = false) -> SuiteResult {
    var total: Int?
    var failed: [String] = []
    var lastLines: [String] = []
    var crashLine: String?
    for line in output.split(whereSeparator: \.isNewline).map(String.init) {
      lastLines = Array((lastLines + [line]).suffix(5))
      if crashLine == nil, line.contains("Fatal error") || line.contains("Program crashed") {
        crashLine = line.trimmingCharacters(in: .whitespaces)
      }
      if let range = line.range(of: "Test run with ") {
        let count = line[range.upperBound...].prefix { $0.isNumber }
        total = Int(count)
      } else if line.hasPrefix("✘ Test "), line.contains(" failed after") {
        var name = String(line.dropFirst("✘ Test ".count))
        let ends = [name.range(of: " with "), name.range(of: " failed after")].compactMap { $0?.lowerBound }
        if let end = ends.min() { name = String(name[..<end]) }
        failed.append(name)
      }
    }
    if timedOut { return SuiteResult(total: total ?? 0, failedTests: failed, ending: .timedOut) }
    guard let total else {
      let reason = crashLine ?? lastLines.last { $0.contains("signal") || $0.contains("error") } ?? lastLines.last
      return SuiteResult(total: 0, failedTests: failed, ending: .crashed(reason ?? "no output"))
    }
    return SuiteResult(total: total, failedTests: failed, ending: .finished)
  }
}
