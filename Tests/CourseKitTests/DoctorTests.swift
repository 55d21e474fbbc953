import Foundation
import Synchronization
import Testing

@testable import CourseKit

/// `course doctor`: each check through its seams (a stub `swift`, a made-up laptop), no build needed.
struct DoctorTests {
  /// A laptop where everything is fine, with the SQLite header at a real temporary path.
  static func laptop(
    headerExists: Bool = true, free: Int64? = 40 << 30, portFree: Bool = true, mac: Bool = false, cores: Int = 2
  ) throws -> Doctor.Environment {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-test-\(UUID().uuidString)")
    let header = scratch.appendingPathComponent("include/sqlite3.h")
    if headerExists {
      try FileManager.default.createDirectory(at: header.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data().write(to: header)
    }
    return Doctor.Environment(
      needsSQLiteHeaders: !mac, isMac: mac, sqliteHeaders: [header.path], freeBytes: { _ in free },
      portIsFree: { _ in portFree }, home: scratch, cores: cores, scratch: scratch.appendingPathComponent("probe"))
  }

  /// `swift`, `git` and `swiftc` as a healthy laptop answers them.
  static func answers(
    version: String = "Swift version 6.3.1 (swift-6.3.1-RELEASE)", git: String = "true", compiles: Bool = true
  ) -> @Sendable ([String]) -> CannedRun {
    { arguments in
      switch arguments.prefix(2) {
      case ["swift", "--version"]: return CannedRun(console: version + "\nTarget: x86_64-unknown-linux-gnu")
      case ["swift", "build"]: return CannedRun(status: 1, console: "")
      case ["git", "rev-parse"]: return git == "true" ? CannedRun(console: "true\n") : CannedRun(status: 128)
      default: return arguments.first == "swiftc" ? CannedRun(status: compiles ? 0 : 1) : CannedRun(status: 1)
      }
    }
  }

  /// A workspace whose stage 01 has its suite and, unless told otherwise, its link.
  static func workspace(link: Bool = true) throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(built: false)
    let links = folder.workspace.url("Tests/SolutionLinks/01-Intro")
    try FileManager.default.removeItem(at: links)
    if link {
      try FileManager.default.createSymbolicLink(atPath: links.path, withDestinationPath: "../01-Intro")
    } else {
      // What a copy without symbolic links leaves: a file holding the link's target.
      try Data("../01-Intro".utf8).write(to: links)
    }
    return folder
  }

  static func run(
    _ folder: borrowing TemporaryWorkspace, json: Bool = false, environment: Doctor.Environment,
    answers: @escaping @Sendable ([String]) -> CannedRun = answers()
  ) throws -> (status: Int32, output: String) {
    let output = Mutex("")
    let course = Course(
      package: SwiftPackage(workspace: folder.workspace, runner: StubCommandRunner(answers: answers)),
      style: Style(colored: false), isTerminal: false, write: { text in output.withLock { $0 += text } })
    let status = try course.doctor(json: json, environment: environment)
    return (status, output.withLock { $0 })
  }

  @Test func aReadyLaptopPassesEveryCheckAndGetsALineToPaste() throws {
    let folder = try Self.workspace()
    let (status, output) = try Self.run(folder, environment: try Self.laptop())
    #expect(status == 0, "nothing blocks:\n\(output)")
    for line in [
      "✔ Swift 6.3.1", "✔ SwiftPM builds with the native build system", "✔ SQLite headers", "✔ a git clone",
      "✔ Tests/SolutionLinks resolve", "free for .build", "✔ .build is writable", "✔ port 8080 is free",
      "the first full build should take about",
    ] {
      #expect(output.contains(line), "the report says \(line):\n\(output)")
    }
    #expect(
      output.contains("Paste this line to your instructor:\n  course doctor: passed · Swift 6.3.1 · first build ≈ "))
    #expect(!output.contains("fix:"), "no fix where nothing is wrong")
    #expect(try folder.read(".build/course/doctor.txt") == "passed\n", "kept for the classroom's snapshot")
  }

  @Test(arguments: [
    ("sqlite", "sudo apt-get install libsqlite3-dev"),
    ("links", "git clone the course again"),
    ("swift", "install Swift 6.2 or later"),
    ("disk", "free at least"),
    ("compile", "run `swift build` to see the compiler's error"),
  ])
  func somethingThatBlocksTheCourseExits1WithItsFix(broken: String, fix: String) throws {
    let folder = try Self.workspace(link: broken != "links")
    let environment = try Self.laptop(headerExists: broken != "sqlite", free: broken == "disk" ? 1 << 29 : 40 << 30)
    let answers = Self.answers(
      version: broken == "swift" ? "Swift version 5.10 (swift-5.10-RELEASE)" : "Swift version 6.3.1",
      compiles: broken != "compile")
    let (status, output) = try Self.run(folder, environment: environment, answers: answers)
    #expect(status == 1, "\(broken) blocks the course:\n\(output)")
    #expect(output.contains("fix: \(fix)"), "with its fix in one line:\n\(output)")
    #expect(output.contains("course doctor: blocked · blocked by \(broken)"), "the line names it:\n\(output)")
  }

  @Test func warningsExitZeroAndAreNamed() throws {
    let folder = try Self.workspace()
    let (status, output) = try Self.run(
      folder, environment: try Self.laptop(free: 2 << 30, portFree: false), answers: Self.answers(git: "no"))
    #expect(status == 0, "warnings do not block:\n\(output)")
    #expect(output.contains("course doctor: warnings · warnings: git, disk, port"), "\(output)")
    #expect(output.contains("fix: stop what listens on 8080"), "\(output)")
  }

  @Test func aMacAlsoChecksDerivedDataAndXcodeButNotSQLite() throws {
    let folder = try Self.workspace()
    let (_, output) = try Self.run(folder, json: true, environment: try Self.laptop(mac: true))
    let report = try JSONDecoder().decode(Decoded.self, from: Data(output.utf8))
    let ids = report.checks.map(\.id)
    #expect(ids.contains("derived-data") && ids.contains("xcode") && !ids.contains("sqlite"), "\(ids)")
  }

  struct Decoded: Decodable {
    struct Check: Decodable {
      var id: String
      var verdict: String
      var summary: String
      var fix: String?
    }
    var result: String
    var checks: [Check]
    var line: String
    var firstBuildSeconds: Int?
  }

  @Test func jsonHasEveryCheckTheResultAndTheLine() throws {
    let folder = try Self.workspace(link: false)
    let (status, output) = try Self.run(folder, json: true, environment: try Self.laptop())
    #expect(status == 1)
    let report = try JSONDecoder().decode(Decoded.self, from: Data(output.utf8))
    #expect(report.result == "blocked")
    #expect(report.checks.first { $0.id == "links" }?.verdict == "blocking")
    #expect(report.line.hasPrefix("course doctor: blocked · blocked by links"))
    #expect(report.firstBuildSeconds != nil)
  }

  @Test(arguments: [
    ("Swift version 6.3.1 (swift-6.3.1-RELEASE)", [6, 3, 1]),
    ("Apple Swift version 6.0.3 (swiftlang-6.0.3.1.10 clang-1600.0.30.1)", [6, 0, 3]),
    ("Swift version 6.4-dev (LLVM abc, Swift def)", [6, 4]),
    ("swift-driver version: 1.120.5 Apple Swift version 6.1 (swiftlang-6.1.0.110.21)", [6, 1]),
  ])
  func readsTheToolchainVersion(text: String, version: [Int]) {
    #expect(Doctor.swiftVersion(in: text) == version)
  }

  @Test(arguments: [(1.2, 2, 270), (2.4, 2, 540), (1.2, 8, 68), (1.2, 64, 68)])
  func estimatesTheFirstBuildFromTheCompileAndTheCores(compile: Double, cores: Int, seconds: Int) {
    #expect(Doctor.firstBuildEstimate(compileSeconds: compile, cores: cores) == seconds)
  }

  @Test func parsesItsOption() throws {
    #expect(try Command.parse(["doctor"]) == .doctor(json: false))
    #expect(try Command.parse(["doctor", "--json"]) == .doctor(json: true))
    #expect(throws: CourseError.self) { try Command.parse(["doctor", "--fix"]) }
    #expect(Command.helpText("doctor").contains("--json"))
    #expect(Command.helpText(nil).contains("\n  doctor "), "the overview lists doctor")
  }
}
