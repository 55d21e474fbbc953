import Foundation

/// The course package on disk: where the stages are and what each one has.
public struct Workspace: Sendable {
  /// The package root, the folder that holds Package.swift.
  public let root: URL

  /// Makes a workspace rooted at `root`.
  public init(root: URL) { self.root = root }

  /// Finds the package root at or above `directory`.
  ///
  /// - Throws: `CourseError.notInWorkspace` when no folder above holds both
  ///   Package.swift and Lessons/.
  public static func find(from directory: URL) throws -> Workspace {
    var candidate = directory.standardizedFileURL
    while true {
      let workspace = Workspace(root: candidate)
      if workspace.exists("Package.swift") && workspace.exists("Lessons") { return workspace }
      let parent = candidate.deletingLastPathComponent()
      if parent.path == candidate.path { throw CourseError.notInWorkspace(directory.path) }
      candidate = parent
    }
  }

  /// The environment variable that names the package root, for a `course` started
  /// outside it, such as Xcode's `course` scheme.
  public static let rootVariable = "COURSE_PACKAGE_ROOT"

  /// The package this copy of CourseKit was compiled from: `#filePath` of this
  /// file is `<root>/Sources/CourseKit/Workspace.swift`.
  public static let compiledFrom = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// Finds the package `course` works on.
  ///
  /// In order: the folder `COURSE_PACKAGE_ROOT` names; the current directory
  /// or a folder above it; and last the package this tool was built from. Xcode
  /// runs the `course` scheme in DerivedData, far from any package, and `swift
  /// run` from a folder outside the clone: the last is then the clone, the only
  /// package this build of `course` belongs to.
  ///
  /// - Throws: `CourseError.notInWorkspace` when none of them is the course package.
  public static func locate(
    currentDirectory: URL, environment: [String: String], builtFrom: URL = compiledFrom
  ) throws -> Workspace {
    if let named = environment[rootVariable], !named.isEmpty {
      return try find(from: URL(fileURLWithPath: named, relativeTo: currentDirectory))
    }
    if let found = try? find(from: currentDirectory) { return found }
    let origin = Workspace(root: builtFrom.standardizedFileURL)
    if origin.exists("Package.swift") && origin.exists("Lessons") { return origin }
    throw CourseError.notInWorkspace(currentDirectory.path)
  }

  /// Every stage that has a folder in Lessons/ or Solutions/, in order.
  public func stages() -> [Stage] {
    let names = ["Lessons", "Solutions"].flatMap { folder in
      (try? FileManager.default.contentsOfDirectory(atPath: url(folder).path)) ?? []
    }
    return Set(names.compactMap(Stage.init(folderName:))).sorted()
  }

  /// The files the stage contract asks every stage to have, with whether each exists.
  public func requiredFiles(of stage: Stage) -> [(path: String, exists: Bool)] {
    [
      "Lessons/\(stage.folder)",
      "Solutions/\(stage.folder)",
      "Tests/\(stage.folder)",
      "Tests/SolutionLinks/\(stage.folder)",
      stage.doc,
    ].map { ($0, exists($0)) }
  }

  /// Swift files of the stage's lesson that call `fatalError`, which would crash
  /// the whole test run instead of failing one test.
  public func lessonFilesCallingFatalError(of stage: Stage) -> [String] {
    let folder = "Lessons/\(stage.folder)"
    return swiftFiles(under: folder).filter { file in
      let text = (try? String(contentsOf: url("\(folder)/\(file)"), encoding: .utf8)) ?? ""
      return text.contains("fatalError(")
    }.map { "\(folder)/\($0)" }
  }

  /// The files below a folder, as paths relative to it, sorted; hidden files left out.
  func files(under folder: String) -> [String] {
    let all = (try? FileManager.default.subpathsOfDirectory(atPath: url(folder).path)) ?? []
    return all.filter { path in
      var isDirectory: ObjCBool = false
      let exists = FileManager.default.fileExists(atPath: url("\(folder)/\(path)").path, isDirectory: &isDirectory)
      return exists && !isDirectory.boolValue && !path.split(separator: "/").contains { $0.hasPrefix(".") }
    }.sorted()
  }

  /// The Swift files below a folder, as paths relative to it, sorted.
  func swiftFiles(under folder: String) -> [String] {
    files(under: folder).filter { $0.hasSuffix(".swift") }
  }

  func url(_ relativePath: String) -> URL {
    root.appendingPathComponent(relativePath)
  }

  func exists(_ relativePath: String) -> Bool {
    FileManager.default.fileExists(atPath: url(relativePath).path)
  }
}
