import Classroom
import Foundation

/// One thing `course doctor` looked at: what it found and, when it is not fine, the fix in one line.
struct DoctorCheck: Sendable, Equatable, Encodable {
  enum Verdict: String, Sendable, Encodable {
    case ok
    /// The course works, but something will cost time on the day.
    case warning
    /// The course cannot build or run on this laptop until it is fixed.
    case blocking
  }

  /// A short stable name for scripts: `swift`, `sqlite`, `links`, `port`…
  var id: String
  var verdict: Verdict
  var summary: String
  var fix: String?
}

/// Everything `course doctor` found, as the learner reads it, as the one line
/// they paste to the instructor, and as JSON.
struct DoctorReport: Sendable, Equatable, Encodable {
  var checks: [DoctorCheck]
  /// The estimate of the first `swift build --build-tests`, in seconds.
  var firstBuildSeconds: Int?

  /// Passed, passed with warnings, or blocked: what the classroom is told.
  var result: Snapshot.Doctor {
    if checks.contains(where: { $0.verdict == .blocking }) { return .blocked }
    return checks.contains(where: { $0.verdict == .warning }) ? .warnings : .passed
  }

  /// 1 when something blocks the course, 0 otherwise.
  var exitStatus: Int32 { result == .blocked ? 1 : 0 }

  /// The line to paste to the instructor: the result, what failed by name, the toolchain and the estimate.
  var line: String {
    let swift = checks.first { $0.id == "swift" && $0.verdict == .ok }?.summary ?? "Swift ?"
    var parts = ["course doctor: \(result.rawValue)"]
    let blocking = checks.filter { $0.verdict == .blocking }.map(\.id)
    let warning = checks.filter { $0.verdict == .warning }.map(\.id)
    if !blocking.isEmpty { parts.append("blocked by " + blocking.joined(separator: ", ")) }
    if !warning.isEmpty { parts.append("warnings: " + warning.joined(separator: ", ")) }
    parts.append(swift)
    if let firstBuildSeconds { parts.append("first build ≈ " + Doctor.minutes(firstBuildSeconds)) }
    return parts.joined(separator: " · ")
  }

  private enum CodingKeys: String, CodingKey {
    case result, checks, firstBuildSeconds, line
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(result.rawValue, forKey: .result)
    try container.encode(checks, forKey: .checks)
    try container.encodeIfPresent(firstBuildSeconds, forKey: .firstBuildSeconds)
    try container.encode(line, forKey: .line)
  }

  /// `course doctor --json`.
  var json: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return (try? encoder.encode(self)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
  }

  // MARK: Kept for the classroom

  /// Where the last result is kept, relative to the package root: the classroom snapshot reads it.
  static let path = ".build/course/doctor.txt"

  /// Writes the result; a `.build` that cannot be written has been reported already.
  func record(in workspace: Workspace) {
    let url = workspace.url(Self.path)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data((result.rawValue + "\n").utf8).write(to: url, options: .atomic)
  }

  /// The last result recorded in a workspace; `unknown` when the doctor has not run there.
  static func lastResult(in workspace: Workspace) -> Snapshot.Doctor {
    guard let text = try? String(contentsOf: workspace.url(path), encoding: .utf8) else { return .unknown }
    return Snapshot.Doctor(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? .unknown
  }
}
