import CourseKit
import Foundation
import Synchronization

/// A throwaway folder laid out like the course: stages with their four folders, their docs, and a build.
struct TemporaryWorkspace: ~Copyable {
  let workspace: Workspace

  /// The doc every stage gets: two tasks, each with two hints in its hints file.
  static func doc(_ stage: String) -> String { "# \(stage)\n\n## Tasks\n\n" + tasks }
  /// The `### Task` headings of `doc`, for a test that writes a doc of its own.
  static let tasks = "### Task 1: Pass a\n\nMake a() pass.\n\n### Task 2: Pass b\n\nMake b() pass.\n"

  /// A `## Your decisions` section with the two decisions `course verify` asks of a stage from 02 on.
  static let decisions = "## Your decisions\n\n### Where a lives\n\nYours.\n\n### How b is built\n\nYours too.\n\n"

  static func hints(_ stage: String) -> String {
    "# Hints for \(stage)\n\n## Task 1: Pass a\n\n### Hint 1\n\nLook at a.\n\n### Hint 2\n\nReturn 1 from a.\n\n"
      + "## Task 2: Pass b\n\n### Hint 1\n\nLook at b.\n\n### Hint 2\n\n```swift\n### not a heading\n```\n"
  }

  /// Makes the folders of `stages` (`NN-Name`), each with its doc (two tasks) and hints unless `withDoc` is false.
  init(stages: [String] = ["01-Intro"], withDoc: Bool = true, built: Bool = true) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("course-\(UUID().uuidString)")
    workspace = Workspace(root: root)
    for stage in stages {
      for folder in ["Lessons", "Solutions", "Tests", "Tests/SolutionLinks"] {
        try FileManager.default.createDirectory(
          at: root.appendingPathComponent("\(folder)/\(stage)"), withIntermediateDirectories: true)
      }
      if withDoc {
        try write("Docs/\(stage).md", Self.doc(stage))
        try write("Docs/hints/\(stage).md", Self.hints(stage))
      }
    }
    if built {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(".build/debug/IntroPackageTests.xctest"), withIntermediateDirectories: true)
    }
    try write("Package.swift", "")
  }

  /// Writes a file, making its folders.
  func write(_ relativePath: String, _ text: String) throws {
    let url = workspace.root.appendingPathComponent(relativePath)
    try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try writeFixture(text, to: url)
  }

  /// Runs `course` on this workspace with a stub runner that gives `answers`.
  func run(
    _ command: Command, answers: @escaping @Sendable ([String]) -> CannedRun = CannedRun.answer(),
    buildSystem: BuildSystem = Self.defaultBuildSystem, invocation: String = Launcher.swiftRun
  ) -> (status: Int32, output: String, runner: StubCommandRunner) {
    let runner = StubCommandRunner(answers: answers)
    let (status, output) = run(command, with: runner, buildSystem: buildSystem, invocation: invocation)
    return (status, output, runner)
  }

  /// The build system of a run that names none: the native one, as the toolchain's default.
  static let defaultBuildSystem = BuildSystem(kind: .native, isToolchainDefault: true)

  /// The command with which `course` builds everything here, under `buildSystem`.
  func buildCommand(_ buildSystem: BuildSystem = Self.defaultBuildSystem) -> [String] {
    SwiftPackage(workspace: workspace, runner: StubCommandRunner { _ in CannedRun() }, buildSystem: buildSystem)
      .buildCommand
  }

  /// Runs `course` on this workspace with `runner`, and returns its exit status and output.
  ///
  /// - Parameters:
  ///   - interruption: What stands for Ctrl-C.
  ///   - pause: Stands for `watch`'s wait between two looks at the files; never sleeps.
  ///   - invocation: How the learner started course.
  func run(
    _ command: Command, with runner: any CommandRunning, interruption: Interruption = Interruption(),
    pause: @escaping @Sendable (Double) -> Void = { _ in }, buildSystem: BuildSystem = Self.defaultBuildSystem,
    invocation: String = Launcher.swiftRun
  ) -> (status: Int32, output: String) {
    let output = Mutex("")
    let course = Course(
      package: SwiftPackage(workspace: workspace, runner: runner, buildSystem: buildSystem),
      style: Style(colored: false),
      isTerminal: false, write: { text in output.withLock { $0 += text } }, interruption: interruption,
      pause: pause, invocation: invocation)
    let status = course.run(command)
    return (status, output.withLock { $0 })
  }

  /// Reads a file of the workspace.
  func read(_ relativePath: String) throws -> String {
    try String(contentsOf: workspace.root.appendingPathComponent(relativePath), encoding: .utf8)
  }

  deinit { try? FileManager.default.removeItem(at: workspace.root) }
}
