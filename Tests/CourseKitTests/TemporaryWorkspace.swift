import CourseKit
import Foundation
import Synchronization

/// A throwaway folder laid out like the course: stages with their four folders, their docs, and a build.
struct TemporaryWorkspace: ~Copyable {
  let workspace: Workspace

  /// Makes the folders of `stages` (`NN-Name`), each with a doc `# Name` unless `withDoc` is false.
  init(stages: [String] = ["01-Intro"], withDoc: Bool = true, built: Bool = true) throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("course-\(UUID().uuidString)")
    workspace = Workspace(root: root)
    for stage in stages {
      for folder in ["Lessons", "Solutions", "Tests", "Tests/SolutionLinks"] {
        try FileManager.default.createDirectory(
          at: root.appendingPathComponent("\(folder)/\(stage)"), withIntermediateDirectories: true)
      }
      if withDoc { try write("Docs/\(stage).md", "# \(stage)\n") }
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
    try Data(text.utf8).write(to: url)
  }

  /// Runs `course` on this workspace with a stub runner that gives `answers`.
  func run(_ command: Command, answers: @escaping @Sendable ([String]) -> CannedRun = CannedRun.answer())
    -> (status: Int32, output: String, runner: StubCommandRunner)
  {
    let runner = StubCommandRunner(answers: answers)
    let (status, output) = run(command, with: runner)
    return (status, output, runner)
  }

  /// Runs `course` on this workspace with `runner`, and returns its exit status and output.
  func run(_ command: Command, with runner: any CommandRunning) -> (status: Int32, output: String) {
    let output = Mutex("")
    let course = Course(
      package: SwiftPackage(workspace: workspace, runner: runner), style: Style(colored: false),
      isTerminal: false, write: { text in output.withLock { $0 += text } })
    let status = course.run(command)
    return (status, output.withLock { $0 })
  }

  deinit { try? FileManager.default.removeItem(at: workspace.root) }
}
