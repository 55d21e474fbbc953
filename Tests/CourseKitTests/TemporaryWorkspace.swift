import CourseKit
import Foundation

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

  deinit { try? FileManager.default.removeItem(at: workspace.root) }
}
