import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `course doctor`'s checks: what makes a laptop fail on the day, found before it.
///
/// Each check looks at the laptop, not at the course's build, so the doctor runs
/// before the first build and needs no test target: it asks `swift` for its
/// version and SwiftPM for its default build system, looks for files, tries a port, and times
/// one small compile. A check that blocks the course makes `course doctor` exit
/// non-zero; a warning does not.
struct Doctor: Sendable {
  /// What the doctor may look at; `system` is the real laptop, tests pass their own.
  struct Environment: Sendable {
    /// Whether SQLite comes from the system's headers (Linux) rather than the SDK.
    var needsSQLiteHeaders: Bool
    var isMac: Bool
    /// Where SQLite's header may be.
    var sqliteHeaders: [String]
    /// Free bytes on the volume that holds a path; `nil` when unknown.
    var freeBytes: @Sendable (URL) -> Int64?
    /// Whether `course serve` could listen on a port now.
    var portIsFree: @Sendable (UInt16) -> Bool
    /// The user's home folder, for DerivedData on a Mac.
    var home: URL
    /// Cores, for the build estimate.
    var cores: Int
    /// A folder for the timed compile's scratch files.
    var scratch: URL
    /// The operating system and its version, as the line to paste names it: `Debian GNU/Linux 12 (bookworm)`, `macOS 15.6.1`.
    var operatingSystem: String = "an unknown system"
    /// The processor seconds (user and system) this process's finished children
    /// used so far; `nil` where unknown, and the timed compile then counts wall time.
    var childProcessorSeconds: @Sendable () -> Double? = { nil }
    /// The one-minute load average; `nil` where unknown.
    var loadAverage: @Sendable () -> Double? = { nil }

    static func system(portIsFree: @escaping @Sendable (UInt16) -> Bool) -> Environment {
      #if canImport(Darwin)
        let mac = true
      #else
        let mac = false
      #endif
      return Environment(
        needsSQLiteHeaders: !mac, isMac: mac,
        sqliteHeaders: ["/usr/include/sqlite3.h", "/usr/local/include/sqlite3.h"],
        freeBytes: { url in
          let attributes = try? FileManager.default.attributesOfFileSystem(forPath: url.path)
          return (attributes?[.systemFreeSize] as? NSNumber)?.int64Value
        },
        portIsFree: portIsFree, home: FileManager.default.homeDirectoryForCurrentUser,
        cores: ProcessInfo.processInfo.activeProcessorCount,
        scratch: FileManager.default.temporaryDirectory.appendingPathComponent("course-doctor-\(UUID().uuidString)"),
        operatingSystem: systemName(isMac: mac),
        childProcessorSeconds: {
          var usage = rusage()
          #if canImport(Glibc)
            let children = __rusage_who_t(RUSAGE_CHILDREN.rawValue)
          #else
            let children = RUSAGE_CHILDREN
          #endif
          guard getrusage(children, &usage) == 0 else { return nil }
          return Double(usage.ru_utime.tv_sec) + Double(usage.ru_stime.tv_sec)
            + (Double(usage.ru_utime.tv_usec) + Double(usage.ru_stime.tv_usec)) / 1e6
        },
        loadAverage: {
          var loads = [0.0, 0.0, 0.0]
          return getloadavg(&loads, 3) >= 1 ? loads[0] : nil
        })
    }

    /// `macOS 15.6.1`, or the `PRETTY_NAME` of `/etc/os-release` (`Debian GNU/Linux 12 (bookworm)`).
    static func systemName(isMac: Bool) -> String {
      if isMac {
        let version = ProcessInfo.processInfo.operatingSystemVersion
        return "macOS \(version.majorVersion).\(version.minorVersion)"
          + (version.patchVersion > 0 ? ".\(version.patchVersion)" : "")
      }
      let release = (try? String(contentsOfFile: "/etc/os-release", encoding: .utf8)) ?? ""
      return prettyName(osRelease: release) ?? "Linux"
    }

    /// The `PRETTY_NAME` of an os-release file, without its quotes.
    static func prettyName(osRelease text: String) -> String? {
      for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
        let value = line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(in: CharacterSet(charactersIn: "\"' "))
        return value.isEmpty ? nil : value
      }
      return nil
    }
  }

  let workspace: Workspace
  let runner: any CommandRunning
  /// The build system `course` builds with in this run.
  let buildSystem: BuildSystem
  let environment: Environment

  /// `course serve`'s default port.
  static let servePort = ServeOptions().port
  /// A cold `swift build --build-tests` leaves 330 MiB under `.build`, and a
  /// day of `course check` (the fault checks' scratch builds) and both build
  /// systems about 900 MiB (Linux, Swift 6.3.1, debug). Below `blockingFree`
  /// a build may not finish; below `warningFree` the day may not.
  static let blockingFree: Int64 = 1 << 30
  static let warningFree: Int64 = 3 << 30

  /// The timed compile as measured on the reference machine, and the cold
  /// `swift build --build-tests` of a fresh clone there, measured together:
  /// 2 cores, Swift 6.3.1, Linux, debug. Docs/Classroom.md has the runs.
  /// On the otherwise idle machine, fifteen doctor runs timed the compile at
  /// 0.30 to 0.58 s (0.49 on average), and ten cold builds took 139 to 216 s (166).
  static let referenceCompile = 0.49
  static let referenceBuild = 166.0
  static let referenceCores = 2
  /// How far below and above the estimate a first build lands, as fractions of
  /// it: the range the line to paste gives. The reference machine's speed
  /// drifts by a fifth within minutes, which no compile of a few seconds
  /// foresees: builds landed from 10% below to 83% above their estimates
  /// (Docs/Classroom.md has the runs).
  static let estimateBelow = 0.25
  static let estimateAbove = 0.6
  /// A load average past this many per core is a laptop busy with something
  /// else: its build then takes longer by about the load per core, and the
  /// range's top grows by that much.
  static let busyLoadPerCore = 2.0
  /// The compile runs this many times, and the average of all but the first
  /// counts: the first on a laptop also builds the compiler's module cache,
  /// which no build pays twice, and one compile varies by a quarter from run
  /// to run on the same idle machine, where a build varies by a twentieth.
  static let probeRuns = 6

  /// Runs every check, in the order they are shown.
  func run() throws -> DoctorReport {
    let (swift, target) = try swiftVersion()
    var checks = [swift]
    checks.append(try buildSystemCheck())
    if environment.needsSQLiteHeaders { checks.append(sqliteHeaders()) }
    if environment.isMac { checks.append(try xcodeSelected()) }
    checks.append(try gitClone())
    checks.append(solutionLinks())
    checks.append(contentsOf: diskSpace())
    checks.append(buildFolderWritable())
    checks.append(servePortFree())
    let (compile, estimate, range) = try timedCompile()
    checks.append(compile)
    return DoctorReport(
      checks: checks, firstBuildSeconds: estimate, firstBuildRange: range, system: environment.operatingSystem,
      architecture: target)
  }

  // MARK: The toolchain

  private func output(_ arguments: [String], timeout: Double = 60) throws -> CommandResult? {
    do {
      return try runner.run(arguments, in: workspace.root, timeout: timeout) { _ in }
    } catch CourseError.interrupted {
      throw CourseError.interrupted
    } catch {
      return nil
    }
  }

  /// The toolchain's version, `6.3.1`, from `swift --version`.
  static func swiftVersion(in text: String) -> [Int]? {
    guard let range = text.range(of: "Swift version ") else { return nil }
    let word = text[range.upperBound...].prefix { $0.isNumber || $0 == "." }
    let parts = word.split(separator: ".").compactMap { Int($0) }
    return parts.isEmpty ? nil : parts
  }

  /// The architecture of `swift --version`'s `Target:` line: `x86_64`, `arm64`.
  static func architecture(in text: String) -> String? {
    guard let range = text.range(of: "Target: ") else { return nil }
    let word = text[range.upperBound...].prefix { $0 != "-" && !$0.isWhitespace }
    return word.isEmpty ? nil : String(word)
  }

  /// The `swift` check, and the architecture the toolchain builds for.
  func swiftVersion() throws -> (DoctorCheck, String?) {
    guard let result = try output(["swift", "--version"]), result.status == 0,
      let version = Self.swiftVersion(in: result.output)
    else {
      return (
        DoctorCheck(
          id: "swift", verdict: .blocking, summary: "`swift --version` did not run",
          fix: "install Swift 6.2 or later (swift.org/install; on a Mac, Xcode 26 or later) and put it on PATH"), nil
      )
    }
    let text = version.map(String.init).joined(separator: ".")
    let target = Self.architecture(in: result.output)
    guard !version.lexicographicallyPrecedes([6, 2]) else {
      return (
        DoctorCheck(
          id: "swift", verdict: .blocking,
          summary:
            "Swift \(text): the course needs 6.2 or later (Package.swift builds the stages with today's app defaults)",
          fix: "install Swift 6.2 or later (swift.org/install; on a Mac, Xcode 26 or later)"), target
      )
    }
    return (DoctorCheck(id: "swift", verdict: .ok, summary: "Swift \(text)"), target)
  }

  /// The build system SwiftPM uses when told nothing (`BuildSystem.askDefault`), and the one `course` uses.
  func buildSystemCheck() throws -> DoctorCheck {
    let standard = try BuildSystem.askDefault(runner: runner, in: workspace.root)
    let name = standard == .swiftbuild ? "Swift Build" : "the native build system"
    let chosen = buildSystem.kind == standard ? "" : "; `course` builds with \(buildSystem)"
    return DoctorCheck(
      id: "build-system", verdict: .ok,
      summary: "SwiftPM builds with \(name) (`\(standard.rawValue)`) by default\(chosen)")
  }

  func sqliteHeaders() -> DoctorCheck {
    guard let found = environment.sqliteHeaders.first(where: { FileManager.default.fileExists(atPath: $0) }) else {
      return DoctorCheck(
        id: "sqlite", verdict: .blocking, summary: "SQLite's headers are missing (stages 04 to 08 link SQLite)",
        fix: "sudo apt-get install libsqlite3-dev (Fedora: sudo dnf install sqlite-devel)")
    }
    return DoctorCheck(id: "sqlite", verdict: .ok, summary: "SQLite headers at \(found)")
  }

  func xcodeSelected() throws -> DoctorCheck {
    guard let result = try output(["xcode-select", "-p"]), result.status == 0 else {
      return DoctorCheck(
        id: "xcode", verdict: .warning, summary: "`xcode-select -p` did not run",
        fix: "install Xcode 26 or later, then sudo xcode-select -s /Applications/Xcode.app")
    }
    let path = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !path.contains("CommandLineTools") else {
      return DoctorCheck(
        id: "xcode", verdict: .warning, summary: "the Command Line Tools are selected, not Xcode",
        fix: "sudo xcode-select -s /Applications/Xcode.app (swift test needs Xcode's testing libraries)")
    }
    return DoctorCheck(id: "xcode", verdict: .ok, summary: "Xcode selected")
  }

  // MARK: The folder

  func gitClone() throws -> DoctorCheck {
    guard let result = try output(["git", "rev-parse", "--is-inside-work-tree"], timeout: 30), result.status == 0,
      result.output.trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    else {
      return DoctorCheck(
        id: "git", verdict: .warning, summary: "this folder is not a git clone",
        fix: "git clone the course rather than copying it: `course` reads your progress and resets lessons with git")
    }
    return DoctorCheck(id: "git", verdict: .ok, summary: "a git clone")
  }

  /// Every stage's solution suite is read through a link in Tests/SolutionLinks; a
  /// copy made without git (a zip, a file share) may turn the links into files.
  func solutionLinks() -> DoctorCheck {
    var broken: [String] = []
    for stage in workspace.stages() where workspace.exists("Tests/\(stage.folder)") {
      var isFolder: ObjCBool = false
      let link = workspace.url("Tests/SolutionLinks/\(stage.folder)")
      if !FileManager.default.fileExists(atPath: link.path, isDirectory: &isFolder) || !isFolder.boolValue {
        broken.append(stage.folder)
      }
    }
    guard broken.isEmpty else {
      return DoctorCheck(
        id: "links", verdict: .blocking,
        summary: "Tests/SolutionLinks/\(broken[0]) is not a link to Tests/\(broken[0])"
          + (broken.count > 1 ? " (and \(broken.count - 1) more)" : ""),
        fix: "git clone the course again (on Windows: git config --global core.symlinks true first)")
    }
    return DoctorCheck(id: "links", verdict: .ok, summary: "Tests/SolutionLinks resolve")
  }

  static func gibibytes(_ bytes: Int64) -> String {
    String(format: "%.1f GiB", Double(bytes) / Double(1 << 30))
  }

  func diskSpace() -> [DoctorCheck] {
    var places = [("disk", workspace.root, ".build")]
    if environment.isMac {
      places.append(("derived-data", environment.home.appendingPathComponent("Library/Developer"), "DerivedData"))
    }
    return places.map { id, url, what in
      guard let free = environment.freeBytes(url) else {
        return DoctorCheck(id: id, verdict: .warning, summary: "free space for \(what) unknown", fix: "keep 3 GiB free")
      }
      let summary = "\(Self.gibibytes(free)) free for \(what)"
      if free < Self.blockingFree {
        return DoctorCheck(
          id: id, verdict: .blocking, summary: summary + ": a day of the course needs about 1 GiB",
          fix: "free at least \(Self.gibibytes(Self.warningFree - free)) on this disk")
      }
      if free < Self.warningFree {
        return DoctorCheck(
          id: id, verdict: .warning, summary: summary + ": tight",
          fix: "free some space: a day of the course needs about 1 GiB")
      }
      return DoctorCheck(id: id, verdict: .ok, summary: summary)
    }
  }

  func buildFolderWritable() -> DoctorCheck {
    let folder = workspace.url(".build/course")
    let probe = folder.appendingPathComponent("doctor-\(UUID().uuidString).probe")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data("probe".utf8).write(to: probe)
      try FileManager.default.removeItem(at: probe)
    } catch {
      return DoctorCheck(
        id: "build-folder", verdict: .blocking, summary: ".build cannot be written",
        fix: "sudo chown -R \"$(whoami)\" .build (or delete .build); never build the course with sudo")
    }
    return DoctorCheck(id: "build-folder", verdict: .ok, summary: ".build is writable")
  }

  func servePortFree() -> DoctorCheck {
    let port = Self.servePort
    guard environment.portIsFree(port) else {
      return DoctorCheck(
        id: "port", verdict: .warning, summary: "port \(port) is taken, the default of `course serve`",
        fix: "stop what listens on \(port) (lsof -i :\(port)), or run `course serve --port 0`")
    }
    return DoctorCheck(id: "port", verdict: .ok, summary: "port \(port) is free for `course serve`")
  }

  // MARK: The timed compile

  /// A small Swift file much like a stage's: Foundation, a protocol, generics, Codable, an actor.
  static let probeSource: String = {
    var source =
      "import Foundation\n\nprotocol Source: Sendable { associatedtype Item: Codable; func load() async throws -> [Item] }\n"
    for index in 0..<6 {
      source += """

        struct Item\(index): Codable, Hashable, Sendable { var id: Int; var title: String; var price: Decimal; var tags: [String]; var updated: Date? }
        actor Store\(index): Source {
          private var items: [Int: Item\(index)] = [:]
          func load() async throws -> [Item\(index)] { items.values.sorted { $0.id < $1.id } }
          func save(_ new: [Item\(index)]) { for item in new { items[item.id] = item } }
        }
        func decode\(index)(_ data: Data) throws -> [Item\(index)] { try JSONDecoder().decode([Item\(index)].self, from: data) }

        """
    }
    return source
  }()

  /// Compiles `probeSource` and scales the time to a first full build.
  func timedCompile() throws -> (DoctorCheck, Int?, String?) {
    let folder = environment.scratch
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = folder.appendingPathComponent("Probe.swift")
    do {
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try Data(Self.probeSource.utf8).write(to: source)
    } catch {
      return (
        DoctorCheck(
          id: "compile", verdict: .warning, summary: "no scratch folder for a timed compile",
          fix: "check that \(FileManager.default.temporaryDirectory.path) is writable"), nil, nil
      )
    }
    // Read before the compiles, which would add to it.
    let load = environment.loadAverage()
    // Processor time, not wall time: a laptop busy with something else right
    // now compiles slower by the clock, which says nothing of its speed.
    var timed: [Double] = []
    for _ in 0..<Self.probeRuns {
      let started = ContinuousClock.now
      let processorBefore = environment.childProcessorSeconds()
      let result = try output(
        [
          "swiftc", "-parse-as-library", "-module-name", "Probe", "-Onone", "-c", source.path, "-o",
          folder.appendingPathComponent("Probe.o").path,
        ], timeout: 120)
      let wall = Double((ContinuousClock.now - started) / .milliseconds(1)) / 1000
      guard let result, result.status == 0, !result.timedOut else {
        let reason = result.map { $0.timedOut ? "ran past 120 s" : "failed" } ?? "did not run"
        return (
          DoctorCheck(
            id: "compile", verdict: .blocking, summary: "a one-file compile \(reason)",
            fix: "run `swift build` to see the compiler's error; reinstall the toolchain if swiftc is missing"),
          nil, nil
        )
      }
      var seconds = wall
      if let before = processorBefore, let after = environment.childProcessorSeconds(), after > before {
        seconds = min(wall, after - before)
      }
      timed.append(seconds)
    }
    let counted = timed.count > 1 ? timed.dropFirst() : timed[...]
    let seconds = counted.reduce(0, +) / Double(max(counted.count, 1))
    let estimate = Self.firstBuildEstimate(compileSeconds: seconds, cores: environment.cores)
    let cores = Double(max(environment.cores, 1))
    var summary =
      String(format: "a one-file compile took %.2f s of processor time (the average of 5): ", seconds)
      + "the first full build should take \(Self.range(estimate)) with nothing else running"
    var range = Self.range(estimate)
    if let load, load > Self.busyLoadPerCore * cores {
      range = Self.range(estimate, busy: load / cores) + " (busy)"
      summary += String(
        format: "; the load is %.1f on %d cores now, and while it stays that high expect %@",
        load, environment.cores, Self.range(estimate, busy: load / cores))
    }
    // Past half an hour the morning goes to building: build the evening before.
    if estimate > 30 * 60 {
      return (
        DoctorCheck(
          id: "compile", verdict: .warning, summary: summary,
          fix: "run `swift build --build-tests` before the day, with the laptop plugged in"), estimate, range
      )
    }
    return (DoctorCheck(id: "compile", verdict: .ok, summary: summary), estimate, range)
  }

  /// The reference machine's cold build, scaled by this compile's speed and by cores.
  static func firstBuildEstimate(compileSeconds: Double, cores: Int) -> Int {
    let speed = compileSeconds / referenceCompile
    // Builds run about `cores` compiles at once; past 8 cores the linker and the
    // order of modules keep most of them waiting.
    let parallel = Double(referenceCores) / Double(min(max(cores, 1), 8))
    return Int((referenceBuild * speed * parallel).rounded())
  }

  /// The range a first build of about `seconds` lands in: `3–5 min`; on a
  /// laptop `busy` times slower than idle, the top of the range grows by that much.
  static func range(_ seconds: Int, busy: Double = 1) -> String {
    let low = Double(seconds) * (1 - estimateBelow)
    let high = Double(seconds) * (1 + estimateAbove) * max(busy, 1)
    guard high >= 90 else { return "under 2 min" }
    let lowMinutes = max(1, Int((low / 60).rounded(.down)))
    let highMinutes = max(lowMinutes + 1, Int((high / 60).rounded(.up)))
    return "\(lowMinutes)–\(highMinutes) min"
  }

  static func minutes(_ seconds: Int) -> String {
    seconds < 90 ? "\(max(1, seconds / 10) * 10) s" : "\(Int((Double(seconds) / 60).rounded())) min"
  }
}
