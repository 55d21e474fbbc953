import Foundation
import Synchronization
import Testing

@testable import CourseKit

/// `course doctor`: each check through its seams (a stub `swift`, a made-up laptop), no build needed.
struct DoctorTests {
  /// A laptop where everything is fine, with the SQLite header at a real temporary path.
  static func laptop(
    headerExists: Bool = true, free: Int64? = 40 << 30, portFree: Bool = true, mac: Bool = false, cores: Int = 2,
    load: Double? = nil
  ) throws -> Doctor.Environment {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-test-\(UUID().uuidString)")
    let header = scratch.appendingPathComponent("include/sqlite3.h")
    if headerExists {
      try FileManager.default.createDirectory(at: header.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data().write(to: header)
    }
    return Doctor.Environment(
      needsSQLiteHeaders: !mac, isMac: mac, sqliteHeaders: [header.path], freeBytes: { _ in free },
      portIsFree: { _ in portFree }, home: scratch, cores: cores, scratch: scratch.appendingPathComponent("probe"),
      operatingSystem: mac ? "macOS 26.1" : "Debian GNU/Linux 12 (bookworm)", loadAverage: { load })
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
    _ folder: borrowing TemporaryWorkspace, json: Bool = false, name: String? = nil, environment: Doctor.Environment,
    answers: @escaping @Sendable ([String]) -> CannedRun = answers()
  ) throws -> (status: Int32, output: String) {
    let output = Mutex("")
    let course = Course(
      package: SwiftPackage(workspace: folder.workspace, runner: StubCommandRunner(answers: answers)),
      style: Style(colored: false), isTerminal: false, write: { text in output.withLock { $0 += text } })
    let status = try course.doctor(json: json, name: name, environment: environment)
    return (status, output.withLock { $0 })
  }

  @Test func aReadyLaptopPassesEveryCheckAndGetsALineToPaste() throws {
    let folder = try Self.workspace()
    let (status, output) = try Self.run(folder, environment: try Self.laptop())
    #expect(status == 0, "nothing blocks:\n\(output)")
    for line in [
      "✔ Swift 6.3.1", "✔ SwiftPM builds with the native build system", "✔ SQLite headers", "✔ a git clone",
      "✔ Tests/SolutionLinks resolve", "free for .build", "✔ .build is writable", "✔ port 8080 is free",
      "the first full build should take ",
    ] {
      #expect(output.contains(line), "the report says \(line):\n\(output)")
    }
    #expect(
      output.contains(
        "Paste this line to your instructor:\n  course doctor: passed · no name · Debian GNU/Linux 12 (bookworm)"
          + " · Swift 6.3.1 x86_64 · first build "), "\(output)")
    #expect(output.contains("`swift run course doctor --name YOUR-NAME`"), "a line without a name says how to add one")
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

  @Test(arguments: [(1.0, 2, 1.0), (2.0, 2, 2.0), (1.0, 8, 0.25), (1.0, 64, 0.25)])
  func estimatesTheFirstBuildFromTheCompileAndTheCores(speed: Double, cores: Int, share: Double) {
    let estimate = Doctor.firstBuildEstimate(compileSeconds: Doctor.referenceCompile * speed, cores: cores)
    #expect(
      estimate == Int((Doctor.referenceBuild * share).rounded()),
      "a compile \(speed)× the reference's on \(cores) cores: \(share)× its build, got \(estimate) s")
  }

  /// From 25% below the estimate, rounded down, to 60% above it, rounded up, in whole minutes.
  @Test(arguments: [(240, "3–7 min"), (600, "7–16 min"), (40, "under 2 min"), (3_000, "37–80 min")])
  func givesARangeTheRunsStayIn(seconds: Int, range: String) {
    let expected = range
    #expect(Doctor.range(seconds) == expected, "\(seconds) s")
  }

  /// A laptop busy now (a load past 2 per core) is told so, and the range's top grows by the load per core.
  @Test func aBusyLaptopGetsAWiderRangeAndIsToldWhy() throws {
    #expect(Doctor.range(185, busy: 4.7) == "2–24 min", "the idle range's top, 4.9 min, times 4.7")
    let folder = try Self.workspace()
    let (_, busy) = try Self.run(folder, environment: try Self.laptop(load: 9.4))
    #expect(busy.contains("the load is 9.4 on 2 cores now, and while it stays that high expect "), "\(busy)")
    #expect(busy.contains(" min (busy)\n"), "the line says the range is a busy laptop's:\n\(busy)")
    let (_, calm) = try Self.run(folder, environment: try Self.laptop(load: 3.5))
    #expect(
      !calm.contains("busy") && !calm.contains("the load is"),
      "a load of 3.5 on 2 cores is a laptop at work on its own:\n\(calm)")
  }

  /// 20 pasted lines must be told apart: each names who ran it, the system and the toolchain.
  @Test func theLineNamesTheLearnerTheSystemAndTheToolchain() throws {
    let folder = try Self.workspace()
    let (_, named) = try Self.run(folder, name: "Zoë", environment: try Self.laptop(mac: true))
    #expect(
      named.contains(
        "course doctor: warnings · warnings: xcode · Zoë · macOS 26.1 · Swift 6.3.1 x86_64 · first build "),
      "\(named)")
    #expect(!named.contains("--name YOUR-NAME"), "a named line needs no advice")

    // A clone that joined a classroom is named by its nickname.
    ClassroomMembership(
      url: try #require(URL(string: "http://127.0.0.1:9")), code: "KQ7M-3XPA", learner: "00", name: "ann"
    ).save(in: folder.workspace)
    let (_, joined) = try Self.run(folder, json: true, environment: try Self.laptop())
    // JSON alone, though the classroom it joined cannot be reached.
    let report = try JSONDecoder().decode(Decoded.self, from: Data(joined.utf8))
    #expect(
      report.line.contains("passed · ann · Debian GNU/Linux 12 (bookworm) · Swift 6.3.1 x86_64"), "\(report.line)")
    ClassroomMembership.remove(in: folder.workspace)

    let (_, odd) = try Self.run(folder, name: "\u{202E}nna  ", environment: try Self.laptop())
    #expect(odd.contains("· nna · "), "a name loses its invisible formatting characters:\n\(odd)")
  }

  /// `course doctor --name NAME`: main.swift takes the name out before the command line is parsed.
  @Test func takesTheNameOutOfTheDoctorsCommandLineOnly() {
    let cases: [([String], [String], String?)] = [
      (["doctor", "--name", "ann", "--json"], ["doctor", "--json"], "ann"),
      (["doctor", "--name=ann"], ["doctor"], "ann"),
      (["join", "http://x:1", "C", "--name", "ann"], ["join", "http://x:1", "C", "--name", "ann"], nil),
      (["doctor", "--name"], ["doctor", "--name"], nil),
    ]
    for (given, rest, name) in cases {
      let found = Course.doctorName(in: given)
      #expect(
        found.arguments == rest && found.name == name,
        "\(given): expected \(rest) and \(name ?? "no name"), got \(found.arguments) and \(found.name ?? "no name")")
    }
  }

  @Test func readsTheSystemsNameFromOsRelease() {
    let text = "NAME=\"Debian GNU/Linux\"\nPRETTY_NAME=\"Debian GNU/Linux 12 (bookworm)\"\nID=debian\n"
    #expect(Doctor.Environment.prettyName(osRelease: text) == "Debian GNU/Linux 12 (bookworm)")
    #expect(Doctor.Environment.prettyName(osRelease: "ID=arch\n") == nil)
    #expect(Doctor.architecture(in: "Swift version 6.3.1\nTarget: aarch64-unknown-linux-gnu\n") == "aarch64")
  }

  @Test func parsesItsOption() throws {
    #expect(try Command.parse(["doctor"]) == .doctor(json: false))
    #expect(try Command.parse(["doctor", "--json"]) == .doctor(json: true))
    #expect(throws: CourseError.self) { try Command.parse(["doctor", "--fix"]) }
    #expect(Command.helpText("doctor").contains("--json"))
    #expect(Command.helpText(nil).contains("\n  doctor "), "the overview lists doctor")
  }
}
