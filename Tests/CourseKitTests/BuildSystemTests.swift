import Foundation
import Testing

@testable import CourseKit

/// `course` builds with the toolchain's default build system, or the one it is
/// told, and reads the same results under both.
struct BuildSystemTests {
  static let native = BuildSystem(kind: .native, isToolchainDefault: true)
  static let swiftBuild = BuildSystem(kind: .swiftbuild, isToolchainDefault: true)
  static let swiftBuildAsked = BuildSystem(kind: .swiftbuild, isToolchainDefault: false)
  /// A lesson with edits, so that status builds and runs even where no test product exists yet.
  static let edited = CannedRun.answer(gitStatus: " M Lessons/01-Intro/A.swift")

  @Test(arguments: [native, swiftBuild])
  func followingTheDefaultPassesNoBuildSystemOption(_ buildSystem: BuildSystem) throws {
    let folder = try TemporaryWorkspace()
    let (_, output, runner) = folder.run(.status, answers: Self.edited, buildSystem: buildSystem)
    let swift = runner.recorded.filter { $0.first == "swift" }
    #expect(swift.contains { $0.starts(with: ["swift", "build"]) }, "output: \(output)")
    for command in swift {
      #expect(
        !command.contains("--build-system"),
        "\(command.joined(separator: " ")): following the default, course shares a bare `swift test`'s build")
    }
  }

  @Test func anotherBuildSystemIsNamedInEverySwiftCommand() throws {
    let folder = try TemporaryWorkspace()
    let (_, output, runner) = folder.run(.status, answers: Self.edited, buildSystem: Self.swiftBuildAsked)
    let swift = runner.recorded.filter { $0.first == "swift" }
    #expect(swift.contains { $0.starts(with: ["swift", "test"]) }, "output: \(output)")
    for command in swift {
      #expect(
        command.firstIndex(of: "--build-system").map { command[$0 + 1] } == "swiftbuild",
        "\(command.joined(separator: " ")) leaves the build system to the toolchain's default")
    }
  }

  @Test func underSwiftBuildCheckBuildsTheStagesTestProductAlone() throws {
    let folder = try TemporaryWorkspace()
    try folder.runnable(".build/out/Products/Debug-linux/Lesson01Tests-test-runner")
    let first = folder.run(.check(stage: "01"), buildSystem: Self.swiftBuild)
    #expect(
      first.runner.recorded.first
        == ["swift", "build", "--product", "Lesson01Tests", "--disable-automatic-resolution"],
      "Swift Build makes a product of each test target: \(first.runner.recorded)")
    let again = folder.run(.check(stage: "01"), buildSystem: Self.swiftBuild)
    #expect(!again.runner.recorded.contains { $0.starts(with: ["swift", "build"]) }, "nothing changed, so no build")
    let status = folder.run(.status, buildSystem: Self.swiftBuild)
    #expect(
      status.runner.recorded.first == ["swift", "build", "--build-tests"],
      "a build of one stage's product is not a build of every stage's: \(status.runner.recorded)")
  }

  @Test func withoutTheStagesTestRunnerCheckBuildsEverything() throws {
    let folder = try TemporaryWorkspace()
    try folder.write(".build/out/Products/Debug-linux/CourseKitTests-test-runner", "")
    let (_, _, runner) = folder.run(.check(stage: "01"), buildSystem: Self.swiftBuild)
    #expect(
      runner.recorded.first == ["swift", "build", "--build-tests"],
      "only a build of every test target makes the runners: \(runner.recorded)")
  }

  @Test func theNativeBuildSystemBuildsEverythingForOneStage() throws {
    let folder = try TemporaryWorkspace()
    let (_, _, runner) = folder.run(.check(stage: "01"))
    #expect(runner.recorded.first == ["swift", "build", "--build-tests"], "one test binary holds every stage")
  }

  @Test func aBuildUnderOneBuildSystemDoesNotCountForTheOther() throws {
    let folder = try TemporaryWorkspace()
    try folder.write(".build/out/Products/Debug-linux/Lesson01Tests-test-runner", "")
    _ = folder.run(.status)
    let native = folder.run(.status)
    #expect(!native.runner.recorded.contains(folder.buildCommand()), "the native build is current")
    let swiftBuild = folder.run(.status, buildSystem: Self.swiftBuildAsked)
    #expect(
      swiftBuild.runner.recorded.first == folder.buildCommand(Self.swiftBuildAsked),
      "Swift Build keeps a tree of its own: \(swiftBuild.runner.recorded)")
  }

  @Test func theStagesTestRunnerRunsItsSuiteWithoutSwiftTest() throws {
    let folder = try TemporaryWorkspace()
    let runner = try folder.runnable(".build/out/Products/Debug-linux/Lesson01Tests-test-runner")
    let (status, output, recorded) = folder.run(.check(stage: "01"), buildSystem: Self.swiftBuild)
    #expect(status == 1, "one test fails: \(output)")
    #expect(output.contains("2 passed, 1 failed"), "\(output)")
    let run = try #require(recorded.recorded.first { StubCommandRunner.filter($0) != nil })
    #expect(
      Array(run.prefix(3)) == [runner.path, "--testing-library", "swift-testing"],
      "the runner is started itself, not through swift test: \(run)")
  }

  // MARK: The event streams of several test runners

  /// A canned run whose test ids belong to `module`.
  static func run(of module: String, tests: [String], failing: [String] = [], ended: Bool = true) -> String {
    EventStreamFixture.run(tests: tests, failing: failing, running: ended ? [] : tests.suffix(1), ended: ended)
      .replacingOccurrences(of: "Demo01Tests", with: module)
  }

  @Test func runsOneAfterAnotherAreReadAsOne() {
    // SwiftPM 6.4 under Swift Build: one run per test target, in turn, in one file.
    let stream =
      Self.run(of: "CourseKitTests", tests: [])
      + Self.run(of: "Lesson01Tests", tests: ["a()", "b()"], failing: ["b()"])
      + Self.run(of: "Lesson02Tests", tests: ["c()"]) + Self.run(of: "ZTests", tests: [])
    let result = SuiteResult(eventStream: stream, console: "", stoppedAfter: nil)
    #expect(result.ending == .finished)
    #expect(result.total == 3, "every run's tests count: \(result)")
    #expect(result.failedTests == ["b()"])
    #expect(result.passed == 2)
  }

  @Test func aRunnerThatDiedLeavesTheWholeRunUnfinished() {
    let stream =
      Self.run(of: "Lesson01Tests", tests: ["a()", "b()"], ended: false) + Self.run(of: "ZTests", tests: [])
    let result = SuiteResult(eventStream: stream, console: "Fatal error: boom", stoppedAfter: nil)
    #expect(result.ending == .crashed("Fatal error: boom, in b()"), "a later runner's end is not this one's")
    #expect(result.unfinishedTests == ["b()"])
  }

  @Test func aRunnerCutOffMidLineLosesOnlyThatLine() {
    let first = Self.run(of: "Lesson01Tests", tests: ["a()"], failing: ["a()"])
    let cut = String(Self.run(of: "Lesson02Tests", tests: ["c()"]).prefix(80))
    let result = SuiteResult(eventStream: first + cut + "\n" + first, console: "", stoppedAfter: nil)
    #expect(result.total == 1, "the same test read twice counts once")
    #expect(result.failedTests == ["a()"])
  }

  // MARK: Choosing the build system

  @Test func theOptionWinsOverTheVariableAndTheVariableOverTheDefault() throws {
    let environment = [BuildSystem.variable: "swiftbuild"]
    #expect(
      try BuildSystem.resolve(option: .native, environment: environment) { .native }
        == BuildSystem(kind: .native, isToolchainDefault: true))
    #expect(
      try BuildSystem.resolve(option: nil, environment: environment) { .native }
        == BuildSystem(kind: .swiftbuild, isToolchainDefault: false))
    #expect(
      try BuildSystem.resolve(option: nil, environment: [:]) { .swiftbuild }
        == BuildSystem(kind: .swiftbuild, isToolchainDefault: true))
    #expect(
      try BuildSystem.resolve(option: nil, environment: [:], builtBy: .swiftbuild) { .native }
        == BuildSystem(kind: .swiftbuild, isToolchainDefault: false),
      "`swift run --build-system swiftbuild course` builds and tests in Swift Build's tree")
    #expect(
      try BuildSystem.resolve(option: nil, environment: environment, builtBy: .native) { .native }.kind == .swiftbuild,
      "the variable wins over where course was built")
    #expect(throws: CourseError.self, "an unknown name is refused, not ignored") {
      try BuildSystem.resolve(option: nil, environment: [BuildSystem.variable: "xcode"]) { .native }
    }
  }

  @Test func whereCourseWasBuiltNamesItsBuildSystem() {
    let root = URL(fileURLWithPath: "/course")
    func kind(_ path: String) -> BuildSystem.Kind? {
      BuildSystem.builtCourse(executable: URL(fileURLWithPath: path), root: root)
    }
    #expect(kind("/course/.build/x86_64-unknown-linux-gnu/debug/course") == .native)
    #expect(kind("/course/.build/out/Products/Debug-linux/course") == .swiftbuild)
    #expect(kind("/Users/me/Library/Developer/Xcode/DerivedData/x/Build/Products/Debug/course") == nil)
    #expect(kind("/course-copy/.build/debug/course") == nil, "another clone's build says nothing of this one")
  }

  @Test func theOptionIsTakenOutOfAnyCommandLine() throws {
    let spaced = try BuildSystem.option(in: ["check", "--build-system", "swiftbuild", "03"])
    #expect(spaced.kind == .swiftbuild)
    #expect(spaced.rest == ["check", "03"])
    let joined = try BuildSystem.option(in: ["--build-system=native", "watch"])
    #expect(joined.kind == .native)
    #expect(joined.rest == ["watch"])
    #expect(try BuildSystem.option(in: ["check"]).kind == nil)
    #expect(throws: CourseError.self) { try BuildSystem.option(in: ["check", "--build-system"]) }
    #expect(throws: CourseError.self) { try BuildSystem.option(in: ["--build-system", "fast"]) }
  }

  @Test func theDefaultIsReadFromSwiftPMsDescriptionOfItsOptions() {
    func help(_ value: String) -> String {
      """
      warning: a line before the JSON
      {"command":{"commandName":"swift-build","arguments":[
        {"kind":"option","names":[{"kind":"long","name":"package-path"}],"defaultValue":"."},
        {"kind":"option","names":[{"kind":"long","name":"build-system"}],"defaultValue":"\(value)",
         "allValues":["native","swiftbuild","xcode"]}
      ]}}
      """
    }
    #expect(BuildSystem.defaultKind(dumpedHelp: help("native")) == .native)
    #expect(BuildSystem.defaultKind(dumpedHelp: help("swiftbuild")) == .swiftbuild)
    #expect(BuildSystem.defaultKind(dumpedHelp: help("xcode")) == nil, "not one course builds with")
    #expect(BuildSystem.defaultKind(dumpedHelp: "error: unknown option") == nil)
  }

  @Test func withoutThatTheVersionDecides() {
    #expect(BuildSystem.defaultKind(version: "Swift version 6.3.1 (swift-6.3.1-RELEASE)") == .native)
    #expect(BuildSystem.defaultKind(version: "Apple Swift version 6.4-dev (LLVM x, Swift y)") == .swiftbuild)
    #expect(BuildSystem.defaultKind(version: "Swift version 7.0 (swift-7.0-RELEASE)") == .swiftbuild)
    #expect(BuildSystem.defaultKind(version: "swift: command not found") == nil)
  }

  @Test func theDefaultIsAskedOncePerToolchain() throws {
    let folder = try TemporaryWorkspace()
    let runner = StubCommandRunner { arguments in
      arguments == ["swift", "build", "--experimental-dump-help"]
        ? CannedRun(
          console: #"{"command":{"arguments":[{"names":[{"kind":"long","name":"build-system"}],"#
            + #""defaultValue":"swiftbuild"}]}}"#) : CannedRun(status: 1)
    }
    let environment = ["PATH": "/nowhere"]
    #expect(
      try BuildSystem.toolchainDefault(runner: runner, workspace: folder.workspace, environment: environment)
        == .swiftbuild)
    #expect(
      try BuildSystem.toolchainDefault(runner: runner, workspace: folder.workspace, environment: environment)
        == .swiftbuild)
    #expect(runner.recorded.count == 1, "the second answer comes from .build/course: \(runner.recorded)")
    _ = try BuildSystem.toolchainDefault(
      runner: runner, workspace: folder.workspace, environment: environment.merging(["TOOLCHAINS": "other"]) { $1 })
    #expect(runner.recorded.count == 2, "another toolchain is asked again")
  }
}

extension TemporaryWorkspace {
  /// Writes an executable file, as a build leaves a test runner.
  @discardableResult
  func runnable(_ relativePath: String) throws -> URL {
    try write(relativePath, "#!/bin/sh\n")
    let url = workspace.url(relativePath)
    try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    return url
  }
}
