import CourseKit
import Foundation
import Testing

/// `./course` at the package root: the built course while it is current, `swift run course` otherwise.
///
/// The script runs in a copy of the package's layout with a `swift` of the
/// test's own on PATH, which says what it was asked; these tests start real
/// processes, a few milliseconds each.
@Suite(.enabled(if: ProcessCommandRunner.canStartProcesses, "course starts processes on macOS and Linux only"))
struct LauncherTests {
  static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("course")

  /// A package with the launcher, sources, a built course that says "built course", and a `swift` that says what it ran.
  struct Package: ~Copyable {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("launcher-\(UUID().uuidString)")
    var tool: URL { root.appendingPathComponent(".build/debug/course") }

    init() throws {
      try write("Package.swift", "")
      try write("Sources/course/main.swift", "")
      try write("Solutions/07-Stage/Store.swift", "")
      try write("Lessons/01-Stage/ViewModel.swift", "")
      try FileManager.default.copyItem(at: LauncherTests.script, to: root.appendingPathComponent("course"))
      try write(".build/debug/course", "#!/bin/sh\necho \"built course $*\"\n", executable: true)
      try write("bin/swift", "#!/bin/sh\necho \"swift $* COURSE_LAUNCHER=$COURSE_LAUNCHER\"\n", executable: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ path: String, _ text: String, executable: Bool = false) throws {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
      if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
    }

    /// Dates a file, so that "newer" does not hang on the clock's resolution.
    func date(_ path: String, secondsAgo: Double) throws {
      try FileManager.default.setAttributes(
        [.modificationDate: Date().addingTimeInterval(-secondsAgo)],
        ofItemAtPath: root.appendingPathComponent(path).path)
    }

    /// Dates every source, and the `swift` on PATH, a minute back: what a build is newer than.
    func settle() throws {
      for path in [
        "Package.swift", "Sources/course/main.swift", "Sources/course", "Sources", "Solutions/07-Stage/Store.swift",
        "Solutions/07-Stage", "Solutions", "bin/swift",
      ] {
        try date(path, secondsAgo: 60)
      }
    }

    /// What `./course check 01` printed.
    func launch() throws -> String {
      let result = try ProcessCommandRunner().run(
        ["env", "PATH=\(root.path)/bin:/usr/bin:/bin", "sh", "./course", "check", "01"], in: root, timeout: 30,
        onLine: { _ in })
      return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Records the built course as course does when the launcher's `swift run` started it.
    func record() throws {
      Launcher.record(
        executable: tool, workspace: Workspace(root: root), environment: [Launcher.variable: "1"])
    }
  }

  @Test func withNothingRecordedItRunsSwiftRunAndAsksCourseToRecordItself() throws {
    let package = try Package()
    let output = try package.launch()
    #expect(
      output == "swift run course check 01 COURSE_LAUNCHER=1",
      "with no .build/course/launcher.tool, ./course must run `swift run course` with COURSE_LAUNCHER=1; it ran \(output)"
    )
    #expect(
      FileManager.default.fileExists(atPath: package.root.appendingPathComponent(Launcher.startFile).path),
      "./course touches \(Launcher.startFile) before the build, so course can date its record to it")
  }

  @Test func aRecordedCourseNewerThanItsSourcesStartsDirectly() throws {
    let package = try Package()
    try package.settle()
    try package.write(Launcher.startFile, "")
    try package.record()
    let output = try package.launch()
    #expect(output == "built course check 01", "nothing changed since course was built, yet ./course ran: \(output)")
  }

  @Test(arguments: ["Package.swift", "Sources/course/main.swift", "Solutions/07-Stage/Store.swift", "bin/swift"])
  func aSourceSavedAfterTheBuildBeganSendsItBackToSwiftRun(_ edited: String) throws {
    let package = try Package()
    try package.settle()
    try package.write(Launcher.startFile, "")
    try package.date(Launcher.startFile, secondsAgo: 30)
    try package.record()
    try package.date(edited, secondsAgo: 10)
    let output = try package.launch()
    #expect(
      output.hasPrefix("swift run course check 01"),
      "\(edited) changed after the recorded build began (bin/swift: a new toolchain), so ./course must build again; it ran: \(output)"
    )
  }

  @Test func aLessonEditLeavesTheBuiltCourseCurrent() throws {
    let package = try Package()
    try package.settle()
    try package.write(Launcher.startFile, "")
    try package.date(Launcher.startFile, secondsAgo: 30)
    try package.record()
    try package.write("Lessons/01-Stage/ViewModel.swift", "// edited")
    let output = try package.launch()
    #expect(
      output == "built course check 01",
      "course builds the lessons itself; a lesson edit must not rebuild course; ./course ran: \(output)")
  }

  @Test func courseRecordsItselfOnlyWhenTheLauncherAsksAndOnlyFromInsideThePackage() throws {
    let package = try Package()
    let workspace = Workspace(root: package.root)
    let record = package.root.appendingPathComponent(Launcher.toolFile)
    try package.write(Launcher.startFile, "")
    try package.date(Launcher.startFile, secondsAgo: 30)
    Launcher.record(executable: package.tool, workspace: workspace, environment: [:])
    #expect(!FileManager.default.fileExists(atPath: record.path), "without COURSE_LAUNCHER=1 course records nothing")
    let elsewhere = URL(fileURLWithPath: "/tmp/DerivedData/Build/Products/Debug/course")
    Launcher.record(executable: elsewhere, workspace: workspace, environment: [Launcher.variable: "1"])
    #expect(!FileManager.default.fileExists(atPath: record.path), "a course outside .build (Xcode's) is not recorded")
    try package.record()
    let named = try String(contentsOf: record, encoding: .utf8)
    #expect(named == package.tool.resolvingSymlinksInPath().path, "the record names the executable; it says \(named)")
    let start =
      try FileManager.default.attributesOfItem(atPath: package.root.appendingPathComponent(Launcher.startFile).path)[
        .modificationDate] as? Date
    let dated = try FileManager.default.attributesOfItem(atPath: record.path)[.modificationDate] as? Date
    #expect(
      abs((dated ?? .distantFuture).timeIntervalSince(start ?? .distantPast)) < 0.001,
      "the record is dated to when the build began (\(String(describing: start))), not \(String(describing: dated))")
  }
}
