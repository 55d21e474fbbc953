import Classroom
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// This laptop's machine key: 32 random bytes, as hexadecimal, made at the
/// first `course join` and kept in the user's configuration folder, outside
/// every clone. `course join` sends it; the room keeps only its SHA-256 digest
/// beside the nickname, so the same laptop (a second terminal, a fresh clone)
/// joining again under that name gets its row back, and another laptop does
/// not. There is no password to remember, and deleting a clone loses nothing.
enum MachineKey {
  /// Where tests keep theirs; `nil` is the user's configuration folder.
  @TaskLocal static var folder: URL?

  /// `$XDG_CONFIG_HOME/repository-course` when that variable names a folder; else
  /// `~/Library/Application Support/repository-course` on a Mac and
  /// `~/.config/repository-course` elsewhere.
  static var userFolder: URL {
    let home = FileManager.default.homeDirectoryForCurrentUser
    if let configuration = ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"], configuration.hasPrefix("/") {
      return URL(fileURLWithPath: configuration).appendingPathComponent("repository-course")
    }
    #if canImport(Darwin)
      return home.appendingPathComponent("Library/Application Support/repository-course")
    #else
      return home.appendingPathComponent(".config/repository-course")
    #endif
  }

  /// The key's file.
  static var file: URL { (folder ?? userFolder).appendingPathComponent("machine-key") }

  /// The key, made the first time; `nil` when the folder cannot be written (the
  /// join then works as before: a row no laptop can take back).
  static func load() -> String? {
    if let key = read() { return key }
    let url = file
    try? FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    // Made only if no other `course join` made it first: two terminals joining at once agree on one key.
    let descriptor = open(url.path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
    if descriptor >= 0 {
      let key = Array((Secret.machineKey() + "\n").utf8)
      _ = key.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
      close(descriptor)
    }
    return read()
  }

  private static func read() -> String? {
    guard let text = try? String(contentsOf: file, encoding: .utf8) else { return nil }
    let key = text.trimmingCharacters(in: .whitespacesAndNewlines)
    return key.utf8.count == 64 && key.allSatisfy(\.isHexDigit) ? key : nil
  }
}

/// This laptop's place in a classroom, kept in `.build/course/classroom.json`
/// from `course join` to `course leave`: where to send snapshots, and what the
/// next snapshot needs to know that one command alone cannot see.
///
/// No file means no classroom: every hook then returns after one failed read.
struct ClassroomMembership: Codable, Equatable {
  /// The task the learner is on, and since when by this laptop's clock.
  struct OnTask: Codable, Equatable {
    var stage: String
    var task: Int
    var since: Date
  }

  var url: URL
  var code: String
  /// The key `/join` gave this laptop.
  var learner: String
  var name: String
  /// The last snapshot made, the base of the next.
  var last: Snapshot?
  var onTask: OnTask?
  /// Faults caught and their total at the last check of each stage's own tests.
  var faults: [String: [Int]] = [:]
  /// Whether the last snapshot did not reach the classroom.
  var unsent = false

  /// The file, relative to the package root.
  static let path = ".build/course/classroom.json"

  static func read(in workspace: Workspace) -> ClassroomMembership? {
    guard let data = try? Data(contentsOf: workspace.url(path)) else { return nil }
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .secondsSince1970
    return try? decoder.decode(ClassroomMembership.self, from: data)
  }

  func save(in workspace: Workspace) {
    let url = workspace.url(Self.path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    let encoder = JSONEncoder()
    encoder.dateEncodingStrategy = .secondsSince1970
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try? encoder.encode(self).write(to: url, options: .atomic)
  }

  static func remove(in workspace: Workspace) {
    try? FileManager.default.removeItem(at: workspace.url(path))
  }

  // MARK: The next snapshot

  /// What one command learned about the learner's progress.
  enum Finding {
    /// `course` or `course status`: every stage solved so far, and the report of the first one that is not.
    case status(solved: [String], firstUnsolved: StageReport?)
    /// `course check NN`, or a rerun of `course watch NN`: the stage's report, and
    /// whether the learner's own tests catch every fault.
    case check(StageReport, testsDone: Bool)
    case watch(StageReport, testsDone: Bool)
    /// `course hint NN TASK`.
    case hint(stage: String, task: Int)
    /// `course doctor`: the laptop's readiness, which every snapshot carries.
    case doctor
  }

  /// The snapshot after `finding`, built on the last one; updates when the current task started.
  mutating func snapshot(after finding: Finding, hints: (String) -> Int, doctor: Snapshot.Doctor, now: Date)
    -> Snapshot
  {
    var next = last ?? Snapshot(event: .status, stage: nil, task: nil)
    switch finding {
    case .status(let solved, let report):
      next.event = .status
      next.solved = solved
      if let report { Self.apply(report, to: &next) } else { Self.clearStage(&next) }
    case .check(let report, let testsDone), .watch(let report, let testsDone):
      if case .watch = finding { next.event = .watch } else { next.event = .check }
      var solved = Set(next.solved)
      if report.result.allPassed && testsDone {
        solved.insert(report.stage.number)
        next.solved = solved.sorted()
        Self.clearStage(&next)
      } else {
        solved.remove(report.stage.number)
        next.solved = solved.sorted()
        Self.apply(report, to: &next)
      }
    case .doctor:
      next.event = .doctor
    case .hint(let stage, let task):
      next.event = .hint
      if next.stage != stage {
        next.passing = []
        next.failing = [task]
      }
      next.stage = stage
      next.task = task
    }
    if let stage = next.stage, let task = next.task {
      if onTask?.stage != stage || onTask?.task != task { onTask = OnTask(stage: stage, task: task, since: now) }
      next.secondsOnTask = max(0, Int(now.timeIntervalSince(onTask?.since ?? now)))
    } else {
      onTask = nil
      next.secondsOnTask = 0
    }
    next.hints = next.stage.map(hints) ?? 0
    let faults = next.stage.flatMap { self.faults[$0] }
    next.faultsCaught = faults?.first
    next.faultsTotal = faults?.last
    next.doctor = doctor
    last = next
    return next
  }

  private static func apply(_ report: StageReport, to snapshot: inout Snapshot) {
    snapshot.stage = report.stage.number
    snapshot.task = report.firstTask?.number
    let failing = Set(report.sections.map(\.task.number))
      .union(report.unfinished.compactMap(\.task?.number)).union(report.crashed.compactMap(\.task?.number))
    snapshot.failing = failing.sorted()
    // A task passes only on evidence. A skipped test passed nothing: every task
    // whose section names it is not passing, whichever task it waits for. Skips
    // the doc gives no task, or a run where no test passed, leave every task
    // unproven. While anything failed or was skipped, a task whose section names
    // no test proves nothing either (its tests may be the skipped ones).
    let result = report.result
    let skipped = result.skippedTests
    let skippedTasks = Set(report.tasks.filter { task in skipped.contains { task.names($0) } }.map(\.number))
    let unplaced = skipped.contains { test in !report.tasks.contains { $0.names(test) } }
    let clean = failing.isEmpty && skipped.isEmpty
    snapshot.passing =
      unplaced || result.passed == 0
      ? []
      : report.tasks.filter { task in
        !failing.contains(task.number) && !skippedTasks.contains(task.number) && (clean || !task.tests.isEmpty)
      }.map(\.number).sorted()
  }

  private static func clearStage(_ snapshot: inout Snapshot) {
    snapshot.stage = nil
    snapshot.task = nil
    snapshot.passing = []
    snapshot.failing = []
  }
}
