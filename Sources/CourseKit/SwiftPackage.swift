import CourseClock
import Foundation

/// Builds the course package and runs one stage's suite at a time through `swift`.
public struct SwiftPackage: Sendable {
  /// The package to build and test.
  public let workspace: Workspace
  /// What starts the `swift` processes.
  public let runner: any CommandRunning
  /// Seconds a build may take before it is stopped.
  public var buildTimeout: Double = 3_600
  /// Seconds one suite may take before it counts as hung and is stopped.
  public var suiteTimeout: Double = defaultSuiteTimeout

  /// The default suite time limit: the tests' own safety limit and room to launch.
  ///
  /// A stage's suite runs in well under a second, and `swift test --skip-build`
  /// around it in under one more (0.3 to 0.9 s measured on a 2-core Linux
  /// machine). A test that waits for I/O its code never does gives up after
  /// `safetyLimit` (10 s, CourseClock), once per test however many waits it has
  /// (StageTesting), and then records what never came. The suite may take that
  /// long, so it is stopped only `launchRoom` later: a suite `course` calls hung
  /// has a test still running after every test's safety limit has passed, and a
  /// hung lesson costs the learner 15 s plus the runner's grace period, not minutes.
  public static let defaultSuiteTimeout: Double = Double(safetyLimit.components.seconds) + launchRoom

  /// Seconds the suite time limit allows beyond the tests' safety limit: a
  /// first launch on a busy laptop, more than five times the usual cost, and the
  /// few turns the test's later waits get once it has met its limit.
  static let launchRoom: Double = 5

  /// The build system to build and test with: the toolchain's default unless `course` was told otherwise.
  public var buildSystem: BuildSystem

  /// Makes a package driver.
  ///
  /// - Parameter buildSystem: By default, the native build system as the toolchain's default (no option passed).
  public init(
    workspace: Workspace, runner: any CommandRunning,
    buildSystem: BuildSystem = BuildSystem(kind: .native, isToolchainDefault: true)
  ) {
    self.workspace = workspace
    self.runner = runner
    self.buildSystem = buildSystem
  }

  /// The command that builds every target, tests included.
  public var buildCommand: [String] { ["swift", "build"] + buildSystem.options + ["--build-tests"] }

  /// The command that builds one test product and what it needs, such as `Lesson01Tests`.
  ///
  /// Only Swift Build makes a product of each test target (`canBuildAlone`).
  /// The package depends on no other, so SwiftPM need not look at its
  /// resolution again: `--disable-automatic-resolution` takes about 0.25 s off
  /// every run of the learner's loop (Swift 6.3.1, Linux).
  public func buildCommand(testProduct: String) -> [String] {
    ["swift", "build"] + buildSystem.options + ["--product", testProduct, "--disable-automatic-resolution"]
  }

  /// Whether `testProduct` can be built by itself and then run by its own runner.
  ///
  /// Under Swift Build on Linux, `swift build --product NameTests` relinks
  /// `NameTests.so`, and the `NameTests-test-runner` beside it loads it when it
  /// starts; but only a build of every test target (`--build-tests`) makes that
  /// runner. So the first build is a whole one, and on macOS, where the tests
  /// are bundles that `swift test` starts, every build is.
  public func canBuildAlone(_ testProduct: String) -> Bool {
    buildSystem.buildsTestTargetsApart && buildSystem.testRunner(of: testProduct, in: workspace.root) != nil
  }

  /// The command that runs one test module on the built package, writing its event stream to `events`.
  ///
  /// Where the build made an executable that runs the module's tests
  /// (`BuildSystem.testRunner`), that executable, which takes the options
  /// `swift test` would pass it: 0.1 s instead of a second or more of `swift
  /// test` around it, and under Swift Build one runner instead of one per test
  /// target. Otherwise `swift test --skip-build`.
  public func testCommand(_ testModule: String, events: String) -> [String] {
    let options = [
      "--filter", "\(testModule)\\.",
      "--experimental-event-stream-output", events, "--experimental-event-stream-version", "0",
    ]
    if let runner = buildSystem.testRunner(of: testModule, in: workspace.root) {
      return [runner.path, "--testing-library", "swift-testing"] + options
    }
    return ["swift", "test"] + buildSystem.options + ["--skip-build"] + options
  }

  /// Whether the tests have been built before; the first build is the slow one.
  public var hasBeenBuilt: Bool { buildSystem.hasBuiltTests(in: workspace.root) }

  /// Builds every target, tests included, or one test product and what it needs.
  ///
  /// - Parameters:
  ///   - testProduct: The test product to build alone, such as `Lesson01Tests`
  ///     (Swift Build only, see `buildCommand(testProduct:)`); `nil` builds everything.
  ///   - progress: Called with `(done, total)` as the build reports its steps.
  /// - Throws: `CourseError.buildFailed` with the compiler's error lines.
  public func build(testProduct: String? = nil, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in })
    throws
  {
    let result = try runner.run(
      testProduct.map(buildCommand(testProduct:)) ?? buildCommand, in: workspace.root, timeout: buildTimeout
    ) { line in
      if let step = Self.buildStep(line) { progress(step.done, step.total) }
    }
    guard result.status == 0, !result.timedOut else {
      // `path:line:col: error: …` lines; the source excerpts and `- error:` markers
      // under them (`51 |` and `   |`) make sense only together, so neither is kept.
      var errors = result.output.split(whereSeparator: \.isNewline).map(String.init)
        .filter { $0.contains("error:") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("|") }
      errors = errors.reduce(into: []) { unique, line in
        if !unique.contains(line) { unique.append(line) }
      }
      if result.timedOut { errors.append("the build ran past \(Int(buildTimeout)) s and was stopped") }
      throw CourseError.buildFailed(errors: errors.isEmpty ? [result.output] : errors)
    }
  }

  /// Runs the tests of one test module, such as `Lesson01Tests`, on the built package.
  ///
  /// Counts come from swift-testing's event stream, which the run writes to
  /// `.build/course/<module>.events.jsonl`; the console output is kept in
  /// `.build/course/<module>.log` for a closer look.
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  public func runSuite(_ testModule: String) throws -> SuiteResult {
    let logs = workspace.url(".build/course")
    try? FileManager.default.createDirectory(at: logs, withIntermediateDirectories: true)
    let events = logs.appendingPathComponent("\(testModule).events.jsonl")
    try? FileManager.default.removeItem(at: events)
    let command = testCommand(testModule, events: events.path)
    let result = try runner.run(command, in: workspace.root, timeout: suiteTimeout) { _ in }
    var log = result.output
    let silent = !log.split(whereSeparator: \.isNewline).contains { Self.buildStep(String($0)) == nil }
    if result.timedOut, silent, command.first != "swift" {
      // The test runner itself ran: what it printed is all there is.
      log +=
        "\n(course) The test runner printed nothing before it was stopped after \(Int(suiteTimeout)) s. The tests "
        + "that never ended are named in course's report. Run in a terminal, it shows the runtime's own warnings "
        + "as they happen: \(command.prefix(5).joined(separator: " "))\n"
    } else if result.timedOut, silent {
      // What a learner finds when the report sends them here after a hang.
      log +=
        "\n(course) swift test passed on none of the test run's output before it was stopped after "
        + "\(Int(suiteTimeout)) s. The tests that never ended are named in course's report. On Linux, the test "
        + "binary run in a terminal shows the runtime's own warnings as they happen: "
        + ".build/debug/*PackageTests.xctest --testing-library swift-testing --filter \(testModule)\n"
    }
    try? Data(log.utf8).write(to: logs.appendingPathComponent("\(testModule).log"))
    let stream = (try? String(contentsOf: events, encoding: .utf8)) ?? ""
    return SuiteResult(
      eventStream: stream, console: result.output, stoppedAfter: result.timedOut ? suiteTimeout : nil)
  }

  /// Where `runSuite` keeps the output of a test module's last run.
  public static func logPath(of testModule: String) -> String { ".build/course/\(testModule).log" }

  /// Whether the stage's lesson files differ from what git has committed,
  /// or `nil` when git cannot tell (no repository, no git).
  ///
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  public func lessonHasEdits(_ stage: Stage) throws -> Bool? {
    let result: CommandResult
    do {
      result = try runner.run(
        ["git", "status", "--porcelain", "--", "Lessons/\(stage.folder)"],
        in: workspace.root, timeout: 30, onLine: { _ in })
    } catch CourseError.interrupted {
      throw CourseError.interrupted
    } catch {
      return nil
    }
    guard result.status == 0, !result.timedOut else { return nil }
    return !result.output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
  }

  /// Reads SwiftPM's `[12/340] Compiling …` progress lines.
  static func buildStep(_ line: String) -> (done: Int, total: Int)? {
    guard line.hasPrefix("["), let close = line.firstIndex(of: "]") else { return nil }
    let parts = line[line.index(after: line.startIndex)..<close].split(separator: "/")
    guard parts.count == 2, let done = Int(parts[0]), let total = Int(parts[1]) else { return nil }
    return (done, total)
  }
}
