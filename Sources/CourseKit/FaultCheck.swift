import CourseClock
import Foundation
import Synchronization

/// Checks the tests of a stage's "Write the test" tasks: against the reference
/// solution they must pass, and against each named fault of `Faults/NN-Name.md`
/// at least one of them must fail.
///
/// The check never touches the course package's own build. It writes a scratch
/// package to `.build/course/faults/NN-Name/`: one module named like the lesson
/// (`Lesson03`), compiled from the stage's solution with every fault behind a
/// runtime switch (`FaultSchema`), and two test targets, `YourTests` (the
/// learner's `Lessons/NN-Name/YourTests/`) and `ReferenceTests` (the answers in
/// `Solutions/NN-Name/YourTests/`, whose `SolutionNN` imports are read as
/// `LessonNN`). It depends on the course package by path for the modules the
/// stages use. The first check of a stage builds those once (a minute or two);
/// after that, an edit to a learner's test rebuilds one small module. Then the
/// tests run once per fault, with `COURSE_FAULT` naming it, and once without.
struct FaultCheck {
  /// The folder of a lesson or solution that holds the "Write the test" tasks' tests.
  static let testsFolder = "YourTests"

  let workspace: Workspace
  let runner: any CommandRunning
  let stage: Stage
  let list: FaultList
  /// The course's build system, which builds the scratch package too.
  var buildSystem = BuildSystem(kind: .native, isToolchainDefault: true)
  var buildTimeout: Double = 1_800
  var runTimeout: Double = SwiftPackage.defaultSuiteTimeout
  /// How many more times the tests run against the reference when one of them
  /// fails there, to tell a test that fails on every run from one that races.
  var reruns = 4

  /// Whose tests to check.
  enum Role: String {
    /// `Lessons/NN-Name/YourTests/`, the learner's.
    case learner = "YourTests"
    /// `Solutions/NN-Name/YourTests/`, the reference answers.
    case reference = "ReferenceTests"

    func folder(of stage: Stage) -> String {
      (self == .learner ? "Lessons/" : "Solutions/") + "\(stage.folder)/\(FaultCheck.testsFolder)"
    }
  }

  /// What one task's tests came to.
  struct TaskOutcome: Equatable {
    var task: FaultList.TestTask
    /// Names of the task's tests that ran.
    var tests: [String]
    /// Tests that failed against the reference solution, with their first message,
    /// and on how many of the reference runs they failed (`runs` is 1 for a test
    /// not run again, such as the placeholder).
    var failingOnReference: [(test: String, message: String, failedRuns: Int, runs: Int)]
    /// The task's faults some test caught, and those none caught.
    var caught: [FaultList.Fault]
    var missed: [FaultList.Fault]

    static func == (lhs: TaskOutcome, rhs: TaskOutcome) -> Bool {
      lhs.task == rhs.task && lhs.tests == rhs.tests && lhs.caught == rhs.caught && lhs.missed == rhs.missed
        && lhs.failingOnReference.map(\.test) == rhs.failingOnReference.map(\.test)
    }

    /// Whether the tests are still the lesson's placeholder (it fails with "Not done yet: Task N …").
    var isPlaceholder: Bool {
      !failingOnReference.isEmpty && failingOnReference.allSatisfy { $0.message.contains("Not done yet:") }
    }

    /// Whether the task is done: its tests pass on the reference and catch every fault.
    var isComplete: Bool { !tests.isEmpty && failingOnReference.isEmpty && missed.isEmpty }
  }

  /// The scratch package's folder, relative to the package root.
  var scratch: String { ".build/course/faults/\(stage.folder)" }

  /// Writes the scratch package, rewriting only files whose text changed, so its builds stay incremental.
  ///
  /// - Returns: A fingerprint of everything the check's results depend on: the
  ///   scratch package's files, the course's Package.swift and Sources/ (the
  ///   modules it uses), the build system and the toolchain. The lesson is not
  ///   among them: the check compiles the solution, never the learner's code.
  /// - Throws: `FaultSchema.Problem` when a fault does not fit its solution file.
  @discardableResult
  func prepare() throws -> String {
    let module = stage.lessonModule
    var files: [String: String] = [:]
    files["Package.swift"] = manifest()
    let solution = "Solutions/\(stage.folder)"
    for file in workspace.swiftFiles(under: solution) where !file.hasPrefix(Self.testsFolder + "/") {
      let source = try String(contentsOf: workspace.url("\(solution)/\(file)"), encoding: .utf8)
      let faults = list.faults.filter { $0.file == file }
      files["Sources/\(module)/\(file)"] = try FaultSchema.apply(faults, to: source)
    }
    for fault in list.faults where !workspace.exists("\(solution)/\(fault.file)") {
      throw FaultSchema.Problem(
        description: "fault \"\(fault.name)\" changes \(fault.file), which \(solution) does not have")
    }
    files["Sources/\(module)/CourseFaultSwitch.swift"] = FaultSchema.switchFile
    for role in [Role.learner, .reference] {
      let folder = role.folder(of: stage)
      let tests = workspace.swiftFiles(under: folder)
      for file in tests {
        let source = try String(contentsOf: workspace.url("\(folder)/\(file)"), encoding: .utf8)
        files["Tests/\(role.rawValue)/\(file)"] = Self.asLesson(source, stage: stage)
      }
      if tests.isEmpty {
        // A test target needs a source file; an empty one runs no test.
        files["Tests/\(role.rawValue)/Empty.swift"] = "// No tests in \(folder).\n"
      }
    }
    try sync(files)
    var hash = Fingerprint()
    for (path, text) in files.sorted(by: { $0.key < $1.key }) { hash.add(path + "\n" + text) }
    for (path, stamp) in workspace.fileStamps(under: "Sources").sorted(by: { $0.key < $1.key }) {
      hash.add("\(path) \(stamp.size) \(stamp.modified?.timeIntervalSince1970 ?? 0)")
    }
    hash.add((try? String(contentsOf: workspace.url("Package.swift"), encoding: .utf8)) ?? "")
    hash.add(
      buildSystem.kind.rawValue + " " + BuildSystem.toolchainIdentity(environment: ProcessInfo.processInfo.environment))
    return hash.value
  }

  // MARK: Results kept from the last check

  /// Where the fingerprint of the inputs of the last complete check of `role`'s tests is kept.
  private func inputsRecord(_ role: Role) -> URL {
    workspace.url("\(scratch)/.build/\(role.rawValue).inputs")
  }

  /// Whether the last complete check of `role`'s tests ran on these inputs, so its event streams still hold.
  ///
  /// A lesson edit changes none of them: `course check` and `course watch` then
  /// read the last check's streams instead of building and running it again.
  func hasResults(_ role: Role, for inputs: String) -> Bool {
    guard (try? String(contentsOf: inputsRecord(role), encoding: .utf8)) == inputs else { return false }
    return ([nil] + list.faults.map(\.id)).allSatisfy { FileManager.default.fileExists(atPath: events(role, $0).path) }
  }

  /// Keeps the fingerprint of a check of `role`'s tests that ran to its end; `nil` forgets the last one.
  func recordResults(_ role: Role, for inputs: String?) {
    guard let inputs else {
      try? FileManager.default.removeItem(at: inputsRecord(role))
      return
    }
    try? Data(inputs.utf8).write(to: inputsRecord(role))
  }

  /// The event stream of one run: `role`'s tests with `fault` on (`nil`: none).
  private func events(_ role: Role, _ fault: String?) -> URL {
    workspace.url("\(scratch)/.build/\(role.rawValue)-\(fault ?? "reference").events.jsonl")
  }

  /// Builds the scratch package; the compiler's error lines, with paths put back to the course's files, on failure.
  ///
  /// Both test targets, always: under Swift Build on Linux only a build of the
  /// tests makes their `…-test-runner` executables (`swift build --product
  /// YourTests` makes the tests' library alone), and the scratch package is small.
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  func build() throws -> [String]? {
    let result = try runner.run(
      ["swift", "build"] + buildSystem.options + ["--build-tests"], in: workspace.url(scratch),
      timeout: buildTimeout, onLine: { _ in })
    guard result.status != 0 || result.timedOut else { return nil }
    var errors = result.output.split(whereSeparator: \.isNewline).map(String.init)
      .filter { $0.contains("error:") && !$0.trimmingCharacters(in: .whitespaces).hasPrefix("|") }
      .map(originalPath)
    errors = errors.reduce(into: []) { unique, line in if !unique.contains(line) { unique.append(line) } }
    if result.timedOut { errors.append("the build ran past \(Int(buildTimeout)) s and was stopped") }
    return errors.isEmpty ? [result.output] : errors
  }

  /// Runs the tests of `role` with `fault` on (`nil`: the reference solution as it is).
  ///
  /// - Parameter again: `false` reads the stream the last run left instead (`hasResults`).
  func run(_ role: Role, fault: String?, again: Bool = true) throws -> TestEventStream {
    let events = events(role, fault)
    if !again {
      var stream = TestEventStream(jsonLines: (try? String(contentsOf: events, encoding: .utf8)) ?? "")
      if !stream.runEnded { stream.markUnfinishedAsFailed() }
      return stream
    }
    try? FileManager.default.createDirectory(at: events.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? FileManager.default.removeItem(at: events)
    let options = [
      "--filter", "\(role.rawValue)\\.",
      "--experimental-event-stream-output", events.path, "--experimental-event-stream-version", "0",
    ]
    // On Linux the test product is an executable, which takes swift test's options
    // itself: 0.1 s a run instead of a second of `swift test` around it. On macOS it
    // is a bundle that only `swift test` knows how to start.
    let testRunner = buildSystem.testRunner(of: role.rawValue, in: workspace.url(scratch))
    let command =
      ["env", "\(FaultSchema.variable)=\(fault ?? "")"]
      // Against a fault, a test that waits out its safety limit has caught it: 3 s, not 10, is enough to tell.
      + (fault == nil ? [] : ["\(safetyLimitVariable)=3"])
      + (testRunner.map { [$0.path, "--testing-library", "swift-testing"] + options }
        ?? ["swift", "test"] + buildSystem.options + ["--skip-build"] + options)
    let result = try runner.run(command, in: workspace.url(scratch), timeout: runTimeout, onLine: { _ in })
    var stream = TestEventStream(jsonLines: (try? String(contentsOf: events, encoding: .utf8)) ?? "")
    if result.timedOut || !stream.runEnded { stream.markUnfinishedAsFailed() }
    return stream
  }

  /// How many of the reference runs each test that failed on `first` failed on,
  /// and how many runs that is: when a test other than the placeholder failed
  /// (and the run ended), the tests run `reruns` more times, so a test that
  /// races shows as one that fails on some runs only.
  func referenceRuns(_ role: Role, first: TestEventStream, rerun: Bool = true) throws -> [String: (
    failed: Int, runs: Int
  )] {
    var tally: [String: (failed: Int, runs: Int)] = [:]
    for id in first.failedIDs { tally[id] = (1, 1) }
    let suspects = first.failedIDs.filter { id in
      !Self.message(first.failures.first { $0.testID == id }?.messages ?? []).contains("Not done yet:")
    }
    // A run that did not end hung or crashed: each rerun could cost the whole time limit.
    guard rerun, !suspects.isEmpty, first.runEnded else { return tally }
    for _ in 0..<reruns {
      let again = try run(role, fault: nil)
      for id in suspects {
        let failed = again.failedIDs.contains(id) || !again.runEnded
        tally[id] = ((tally[id]?.failed ?? 0) + (failed ? 1 : 0), (tally[id]?.runs ?? 0) + 1)
      }
    }
    return tally
  }

  /// Runs `role`'s tests against the reference and every fault, and judges each task.
  ///
  /// - Parameter again: `false` judges the streams of the last runs instead (`hasResults`).
  func outcomes(_ role: Role, again: Bool = true) throws -> [TaskOutcome] {
    let reference = try run(role, fault: nil, again: again)
    let tally = try referenceRuns(role, first: reference, rerun: again)
    let runs = try runFaults(role, again: again)
    return list.tasks.map { task in
      let ids = reference.functions.filter { task.testFiles.contains(reference.file(of: $0.id)) }.map(\.id)
      let failing = ids.filter(reference.failedIDs.contains).map { id in
        (
          test: reference.name(of: id),
          message: Self.message(reference.failures.first { $0.testID == id }?.messages ?? []),
          failedRuns: tally[id]?.failed ?? 1, runs: tally[id]?.runs ?? 1
        )
      }
      var caught: [FaultList.Fault] = []
      var missed: [FaultList.Fault] = []
      // A test that fails on the reference catches nothing: it would fail whatever
      // the code. The task's other tests still count.
      let passing = ids.filter { !reference.failedIDs.contains($0) }
      for fault in task.faults {
        let run = runs[fault.id] ?? reference
        if passing.contains(where: { run.failedIDs.contains($0) }) {
          caught.append(fault)
        } else {
          missed.append(fault)
        }
      }
      return TaskOutcome(
        task: task, tests: ids.map(reference.name(of:)), failingOnReference: failing, caught: caught, missed: missed)
    }
  }

  /// Runs `role`'s tests once per fault, all at once.
  ///
  /// A test that catches a fault by waiting for what never comes waits out
  /// StageTesting's safety limit (10 s): one after the other, two such faults
  /// made the capstone's check 20 s longer. The runs share nothing but the
  /// scratch package's build, and the reference run before them has shown that
  /// the tests pass in time when nothing is broken.
  /// - Returns: Each fault's stream, by fault id.
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  private func runFaults(_ role: Role, again: Bool) throws -> [String: TestEventStream] {
    let ids = list.faults.map(\.id)
    guard again else {
      return try Dictionary(uniqueKeysWithValues: ids.map { ($0, try run(role, fault: $0, again: false)) })
    }
    let results = Mutex<[String: Result<TestEventStream, any Error>]>([:])
    let group = DispatchGroup()
    for id in ids {
      DispatchQueue.global().async(group: group) {
        let result = Result { try self.run(role, fault: id) }
        results.withLock { $0[id] = result }
      }
    }
    group.wait()
    return try results.withLock { results in
      try Dictionary(uniqueKeysWithValues: ids.map { ($0, try results[$0]!.get()) })
    }
  }

  /// The learner's report, one block per task: the count first, then each fault missed and what would catch it.
  static func lines(_ outcomes: [TaskOutcome], stage: Stage, style: Style) -> [String] {
    var lines: [String] = []
    for outcome in outcomes {
      let task = outcome.task
      var count = "Your tests caught \(outcome.caught.count) of \(task.faults.count) faults."
      if !outcome.failingOnReference.isEmpty, !outcome.isPlaceholder {
        count += " (Only the tests that pass against the reference count.)"
      }
      let head = "Task \(task.number) \"\(task.title)\": "
      lines.append(
        (outcome.isComplete ? style.green("✔") : style.red("✘")) + " " + head + count)
      let files = task.testFiles.map { "YourTests/\($0)" }.joined(separator: ", ")
      if outcome.tests.isEmpty {
        lines.append("    No tests ran from \(files). Write them there (\(stage.doc), Task \(task.number)).")
        continue
      }
      if outcome.isPlaceholder {
        lines.append(
          "    \(files) still holds the placeholder. Replace it with your tests (\(stage.doc), Task \(task.number)).")
        continue
      }
      for failing in outcome.failingOnReference {
        lines += Self.referenceFailureLines(failing)
      }
      if !outcome.failingOnReference.isEmpty {
        lines.append("    A test that fails whatever the code is catches no fault: fix it or take it out.")
      }
      if outcome.caught.isEmpty, !task.faults.isEmpty, outcome.failingOnReference.isEmpty {
        lines.append(
          "    Your tests pass against every fault. A test that asserts nothing, or only that a value is "
            + "not nil, catches none: expect the exact value the behaviour gives.")
      }
      for fault in outcome.missed {
        lines.append("    missed: \(fault.name). To catch it: \(fault.catchIt)")
      }
    }
    return lines
  }

  /// What the report says about a test that failed against the reference: how
  /// often it failed, what that usually means, and its message.
  ///
  /// A test that fails on every run expects something the reference does not do.
  /// One that fails on some runs only races: the reference is the same code each
  /// time, so the test's result depends on timing or on the order tasks run in.
  static func referenceFailureLines(
    _ failing: (test: String, message: String, failedRuns: Int, runs: Int)
  ) -> [String] {
    let head = "    \(failing.test) fails against the reference solution"
    let explanation: String
    if failing.runs < 2 {
      explanation = head + ". It says:"
    } else if failing.failedRuns >= failing.runs {
      explanation =
        head + " on every one of \(failing.runs) runs, so it expects something the reference does not do: "
        + "a value the task does not ask for, or one the test works out wrong. It says:"
    } else {
      explanation =
        head + " on \(failing.failedRuns) of \(failing.runs) runs and passes on the others: it races. The "
        + "reference is the same code each run, so the result depends on timing or on the order tasks run in: "
        + "wait for the event itself (a gate, a confirmation, the test clock), never a sleep or a number of "
        + "yields. It failed with:"
    }
    return [explanation, "      \(failing.message)"]
  }

  /// What an issue said, in one line: its expectation and comments, without the runner's bare "Issue recorded".
  static func message(_ texts: [String]) -> String {
    texts.filter { $0 != "Issue recorded" }.joined(separator: ": ")
  }

  /// A reference test file, read as if it were the learner's: `SolutionNN` becomes `LessonNN`.
  static func asLesson(_ source: String, stage: Stage) -> String {
    source.replacingOccurrences(
      of: "\\b\(stage.solutionModule)\\b", with: stage.lessonModule, options: .regularExpression)
  }

  /// A compiler line about a scratch file, pointing at the course file it was copied from instead.
  func originalPath(_ line: String) -> String {
    let root = workspace.url(scratch).path
    return
      line
      .replacingOccurrences(of: "\(root)/Tests/YourTests/", with: "Lessons/\(stage.folder)/YourTests/")
      .replacingOccurrences(of: "\(root)/Tests/ReferenceTests/", with: "Solutions/\(stage.folder)/YourTests/")
      .replacingOccurrences(of: "\(root)/Sources/\(stage.lessonModule)/", with: "(faulted) Solutions/\(stage.folder)/")
  }

  /// The scratch package's manifest.
  ///
  /// Its targets build with the settings the course's own package gives them
  /// (Package.swift): Swift 6, the same upcoming features, and the learner's
  /// module as a new Xcode 26 app target (main-actor by default,
  /// nonisolated(nonsending)) unless `COURSE_ISOLATION=package`. A test that
  /// the course's package refuses is refused here too.
  func manifest() -> String {
    // .build/course/faults/NN-Name is four folders below the package root.
    let support = ".product(name: \"CourseStageSupport\", package: \"RepositoryCourse\")"
    return """
      // swift-tools-version: 6.2
      // Written by `swift run course check`; see Sources/CourseKit/FaultCheck.swift.
      import PackageDescription

      let everyTarget: [SwiftSetting] = [
        .swiftLanguageMode(.v6),
        .enableUpcomingFeature("ExistentialAny"),
        .enableUpcomingFeature("MemberImportVisibility"),
        .enableUpcomingFeature("InferIsolatedConformances"),
      ]
      let appDefaults: [SwiftSetting] =
        Context.environment["COURSE_ISOLATION"] == "package"
        ? [] : [.defaultIsolation(MainActor.self), .enableUpcomingFeature("NonisolatedNonsendingByDefault")]

      let package = Package(
        name: "CourseFaultCheck",
        platforms: [.macOS(.v15), .iOS(.v18)],
        dependencies: [.package(name: "RepositoryCourse", path: "../../../..")],
        targets: [
          .target(
            name: "\(stage.lessonModule)", dependencies: [\(support)], swiftSettings: everyTarget + appDefaults),
          .testTarget(
            name: "YourTests", dependencies: ["\(stage.lessonModule)", \(support)], swiftSettings: everyTarget),
          .testTarget(
            name: "ReferenceTests", dependencies: ["\(stage.lessonModule)", \(support)], swiftSettings: everyTarget),
        ]
      )

      """
  }

  private func sync(_ files: [String: String]) throws {
    let manager = FileManager.default
    let root = workspace.url(scratch)
    for folder in ["Sources", "Tests"] {
      let existing = (try? manager.subpathsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? []
      for path in existing where path.hasSuffix(".swift") && files["\(folder)/\(path)"] == nil {
        try? manager.removeItem(at: root.appendingPathComponent("\(folder)/\(path)"))
      }
    }
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      if (try? String(contentsOf: url, encoding: .utf8)) == text { continue }
      try manager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
  }
}

/// FNV-1a, 64 bits: a fingerprint of text, to tell whether inputs changed (not a defence against anyone).
struct Fingerprint {
  private(set) var state: UInt64 = 0xcbf2_9ce4_8422_2325

  /// Adds bytes, run on from the bytes before them.
  mutating func add(bytes: some Sequence<UInt8>) {
    for byte in bytes { state = (state ^ UInt64(byte)) &* 0x100_0000_01b3 }
  }

  /// Adds a text and a byte no UTF-8 text holds, so "ab" then "c" differs from "a" then "bc".
  mutating func add(_ text: String) {
    add(bytes: text.utf8)
    add(bytes: [0xff])
  }

  var value: String { String(state, radix: 16) }
}
