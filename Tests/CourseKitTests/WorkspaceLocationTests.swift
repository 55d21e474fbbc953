import CourseKit
import Foundation
import Testing

/// Where `course` finds the package: Xcode's `course` scheme starts it in
/// DerivedData, far from Package.swift.
struct WorkspaceLocationTests {
  /// A folder that is no package, as DerivedData's Build/Products/Debug is.
  let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("DerivedData-\(UUID().uuidString)")

  @Test func outsideAnyPackageItFindsThePackageItWasBuiltFrom() throws {
    let clone = try TemporaryWorkspace()
    let found = try Workspace.locate(currentDirectory: elsewhere, environment: [:], builtFrom: clone.workspace.root)
    #expect(found.root.standardizedFileURL.path == clone.workspace.root.standardizedFileURL.path)
  }

  @Test(.enabled(if: PlatformGuardTests.sourcesAreReadable, "the package's sources are not on this device"))
  func theRealToolWasBuiltFromThisPackage() {
    let origin = Workspace(root: Workspace.compiledFrom)
    #expect(origin.stages().count > 0, "\(Workspace.compiledFrom.path) has no Lessons/ or Solutions/ stages")
    #expect(FileManager.default.fileExists(atPath: Workspace.compiledFrom.appendingPathComponent("Package.swift").path))
  }

  @Test func theCurrentDirectoryWinsOverThePackageItWasBuiltFrom() throws {
    let here = try TemporaryWorkspace()
    let built = try TemporaryWorkspace()
    let found = try Workspace.locate(
      currentDirectory: here.workspace.root.appendingPathComponent("Lessons/01-Intro"), environment: [:],
      builtFrom: built.workspace.root)
    #expect(found.root.standardizedFileURL.path == here.workspace.root.standardizedFileURL.path)
  }

  @Test func theEnvironmentVariableWinsOverBoth() throws {
    let named = try TemporaryWorkspace()
    let here = try TemporaryWorkspace()
    let found = try Workspace.locate(
      currentDirectory: here.workspace.root, environment: [Workspace.rootVariable: named.workspace.root.path],
      builtFrom: here.workspace.root)
    #expect(found.root.standardizedFileURL.path == named.workspace.root.standardizedFileURL.path)
  }

  @Test func withNoPackageAnywhereItSaysHowToNameOne() {
    #expect(throws: CourseError.notInWorkspace(elsewhere.path)) {
      try Workspace.locate(currentDirectory: elsewhere, environment: [:], builtFrom: elsewhere)
    }
    #expect("\(CourseError.notInWorkspace("/x"))".contains(Workspace.rootVariable))
  }
}
