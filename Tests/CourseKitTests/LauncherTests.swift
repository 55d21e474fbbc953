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
      try write("Sources/course/Old.swift", "")
      try write(".build/debug/course", Package.stub("built course", status: 4), executable: true)
      try write("bin/swift", Package.stub("swift", status: 3), executable: true)
    }

    /// A program that prints its name, its folder, what the launcher told course, and each argument on its own line.
    static func stub(_ name: String, status: Int) -> String {
      """
      #!/bin/sh
      echo "\(name) in $(pwd -P) COURSE_LAUNCHER=$COURSE_LAUNCHER"
      for argument in "$@"; do echo "[$argument]"; done
      exit \(status)

      """
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func write(_ path: String, _ text: String, executable: Bool = false) throws {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try writeFixture(text, to: url)
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
        "Package.swift", "Sources/course/main.swift", "Sources/course/Old.swift", "Sources/course", "Sources",
        "Solutions/07-Stage/Store.swift",
        "Solutions/07-Stage", "Solutions", "bin/swift",
      ] {
        try date(path, secondsAgo: 60)
      }
    }

    /// The package's folder as the launcher names it (`pwd -P`: /tmp may be a link).
    var resolved: String { root.resolvingSymlinksInPath().path }

    /// What `./course check 01` printed, run from `folder` inside the package, and its exit status.
    func launch(from folder: String = "", arguments: [String] = ["check", "01"]) throws -> (String, Int32) {
      let directory = folder.isEmpty ? root : root.appendingPathComponent(folder)
      let script = String(repeating: "../", count: folder.split(separator: "/").count) + "course"
      let result = try ProcessCommandRunner().run(
        [
          "env", "-u", "DEVELOPER_DIR", "-u", "TOOLCHAINS", "-u", Launcher.variable,
          "PATH=\(root.path)/bin:/usr/bin:/bin", "sh", "./" + script,
        ] + arguments, in: directory, timeout: 30,
        onLine: { _ in })
      return (result.output.trimmingCharacters(in: .whitespacesAndNewlines), result.status)
    }

    /// What the launcher's `swift run` prints from `folder`, given `arguments`.
    func swiftRun(from folder: String = "", _ arguments: [String] = ["check", "01"]) -> String {
      let here = folder.isEmpty ? resolved : resolved + "/" + folder
      return
        (["swift in \(here) COURSE_LAUNCHER=1", "[run]", "[--package-path]", "[\(resolved)]", "[course]"]
        + arguments.map { "[\($0)]" }).joined(separator: "\n")
    }

    /// What the built course prints from `folder`, given `arguments`.
    func builtCourse(from folder: String = "", _ arguments: [String] = ["check", "01"]) -> String {
      let here = folder.isEmpty ? resolved : resolved + "/" + folder
      return (["built course in \(here) COURSE_LAUNCHER="] + arguments.map { "[\($0)]" }).joined(separator: "\n")
    }

    /// The toolchain the launcher sees with this package's PATH.
    var toolchain: String { "swift=\(root.path)/bin/swift DEVELOPER_DIR= TOOLCHAINS=" }

    /// Records the built course as course does when the launcher's `swift run` started it.
    func record(executable: URL? = nil, toolchain: String? = nil) throws {
      Launcher.record(
        executable: executable ?? tool, workspace: Workspace(root: root),
        environment: [Launcher.variable: "1", Launcher.toolchainVariable: toolchain ?? self.toolchain])
    }

    /// A record dated 30 s back, a minute after every source.
    func recordBuild(executable: URL? = nil, toolchain: String? = nil) throws {
      try settle()
      try write(Launcher.startFile, "")
      try date(Launcher.startFile, secondsAgo: 30)
      try record(executable: executable, toolchain: toolchain)
    }
  }

  @Test func withNothingRecordedItRunsSwiftRunAndAsksCourseToRecordItself() throws {
    let package = try Package()
    let (output, status) = try package.launch()
    #expect(
      output == package.swiftRun(),
      "with no \(Launcher.toolFile), ./course must run `swift run --package-path <root> course` with COURSE_LAUNCHER=1; it ran:\n\(output)"
    )
    #expect(status == 3, "./course must end with swift run's status (3 here), not \(status)")
    #expect(
      FileManager.default.fileExists(atPath: package.root.appendingPathComponent(Launcher.startFile).path),
      "./course touches \(Launcher.startFile) before the build, so course can date its record to it")
  }

  @Test func aRecordedCourseNewerThanItsSourcesStartsDirectly() throws {
    let package = try Package()
    try package.recordBuild()
    let arguments = ["check", "01", "--hint 2", ""]
    let (output, status) = try package.launch(arguments: arguments)
    #expect(
      output == package.builtCourse(arguments),
      "nothing changed since course was built, so ./course must start it with every argument as given; it ran:\n\(output)"
    )
    #expect(status == 4, "./course must end with course's status (4 here), not \(status)")
  }

  @Test func itKeepsTheLearnersFolderEitherWay() throws {
    let package = try Package()
    let folder = "Lessons/01-Stage"
    let (built, _) = try package.launch(from: folder)
    #expect(
      built == package.swiftRun(from: folder),
      "run from \(folder), ./course must build the package it sits in and leave course in \(folder); it ran:\n\(built)"
    )
    try package.recordBuild()
    let (direct, _) = try package.launch(from: folder)
    #expect(
      direct == package.builtCourse(from: folder),
      "run from \(folder), ./course must start the built course in \(folder); it ran:\n\(direct)")
  }

  @Test(arguments: [
    "Package.swift", "Sources/course/main.swift", "Solutions/07-Stage/Store.swift", "bin/swift",
    "Sources/course/Old.swift",
  ])
  func aSourceChangedAfterTheBuildBeganSendsItBackToSwiftRun(_ edited: String) throws {
    let package = try Package()
    try package.recordBuild()
    if edited.hasSuffix("Old.swift") {
      try FileManager.default.removeItem(at: package.root.appendingPathComponent(edited))
    } else {
      try package.date(edited, secondsAgo: 10)
    }
    let (output, _) = try package.launch()
    #expect(
      output == package.swiftRun(),
      "\(edited) changed (or, Old.swift, was deleted) after the recorded build began (bin/swift: a new toolchain), so ./course must build again; it ran:\n\(output)"
    )
  }

  @Test func aRecordThatNoLongerFitsSendsItBackToSwiftRun() throws {
    for (why, executable, toolchain) in [
      ("names a course that is gone", String?.some("gone"), String?.none),
      ("was made with another toolchain", nil, "swift=/elsewhere/swift DEVELOPER_DIR= TOOLCHAINS="),
    ] {
      let package = try Package()
      let named = executable.map { package.root.appendingPathComponent(".build/debug/" + $0) }
      try package.recordBuild(executable: named, toolchain: toolchain)
      if named != nil {
        let record = package.root.appendingPathComponent(Launcher.toolFile)
        #expect(FileManager.default.fileExists(atPath: record.path), "the record for a course that is gone is written")
      }
      let (output, _) = try package.launch()
      #expect(output == package.swiftRun(), "a record that \(why) must send ./course to swift run; it ran:\n\(output)")
    }
    let package = try Package()
    try package.recordBuild()
    try package.write(Launcher.toolFile, "/bin/echo\n" + package.toolchain + "\n")
    try package.date(Launcher.toolFile, secondsAgo: 30)
    let (output, _) = try package.launch()
    #expect(
      output == package.swiftRun(),
      "a record naming a program outside the package's .build must not be started; ./course ran:\n\(output)")
  }

  @Test func aLessonEditLeavesTheBuiltCourseCurrent() throws {
    let package = try Package()
    try package.recordBuild()
    try package.write("Lessons/01-Stage/ViewModel.swift", "// edited")
    let (output, _) = try package.launch()
    #expect(
      output == package.builtCourse(),
      "course builds the lessons itself; a lesson edit must not rebuild course; ./course ran:\n\(output)")
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
    try package.record(executable: elsewhere)
    #expect(!FileManager.default.fileExists(atPath: record.path), "a course outside .build (Xcode's) is not recorded")
    try package.record()
    let named = try String(contentsOf: record, encoding: .utf8)
    #expect(
      named == package.tool.resolvingSymlinksInPath().path + "\n" + package.toolchain + "\n",
      "the record names the executable, then the toolchain; it says \(named)")
    let start =
      try FileManager.default.attributesOfItem(atPath: package.root.appendingPathComponent(Launcher.startFile).path)[
        .modificationDate] as? Date
    let dated = try FileManager.default.attributesOfItem(atPath: record.path)[.modificationDate] as? Date
    #expect(
      abs((dated ?? .distantFuture).timeIntervalSince(start ?? .distantPast)) < 0.001,
      "the record is dated to when the build began (\(String(describing: start))), not \(String(describing: dated))")
    let folder = try FileManager.default.contentsOfDirectory(atPath: record.deletingLastPathComponent().path)
    #expect(folder.sorted() == ["launcher.start", "launcher.tool"], "the record leaves no draft behind: \(folder)")
  }

  @Test func courseFindsItsPackageFromTheExecutableNotTheCurrentFolder() throws {
    let package = try Package()
    try package.write(Launcher.startFile, "")
    Launcher.record(executable: package.tool, environment: [Launcher.variable: "1", Launcher.toolchainVariable: "t"])
    let record = package.root.appendingPathComponent(Launcher.toolFile)
    let named = (try? String(contentsOf: record, encoding: .utf8)) ?? "nothing"
    #expect(
      named == package.tool.resolvingSymlinksInPath().path + "\nt\n",
      "course started by ./course from any folder records itself in the package its executable is built in; it wrote \(named)"
    )
  }

  @Test(arguments: [
    ("./course", "./course"), ("course", "./course"), ("../../course", "../../course"),
    ("/home/ann/repo/course", "/home/ann/repo/course"), ("", Launcher.swiftRun), ("./other", Launcher.swiftRun),
    ("./my course", Launcher.swiftRun), ("./x`rm`/course", Launcher.swiftRun),
  ])
  func courseNamesItselfAsTheLauncherWasStarted(_ path: String, _ expected: String) {
    let invocation = Launcher.invocation(environment: path.isEmpty ? [:] : [Launcher.commandVariable: path])
    #expect(
      invocation == expected,
      "started by the launcher as \"\(path)\", course should suggest \"\(expected)\", not \"\(invocation)\"")
  }

  @Test func theLauncherTellsCourseHowItWasStarted() throws {
    let package = try Package()
    try package.recordBuild()
    try package.write(".build/debug/course", "#!/bin/sh\necho \"COURSE_COMMAND=$COURSE_COMMAND\"\n", executable: true)
    let (direct, _) = try package.launch(from: "Lessons/01-Stage")
    #expect(
      direct == "COURSE_COMMAND=./../../course",
      "the built course must hear the launcher's path as the learner typed it; it printed:\n\(direct)")
  }
}
