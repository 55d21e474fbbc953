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
  /// The estimate of the first `swift build --build-tests`, in seconds, on the
  /// laptop with nothing else running; the range it lands in as the line says it
  /// (`2–5 min`, or `2–18 min (busy)` on a laptop busy now).
  var firstBuildSeconds: Int?
  var firstBuildRange: String?
  /// The operating system (`Debian GNU/Linux 12 (bookworm)`, `macOS 15.6.1`) and
  /// the architecture the toolchain builds for (`x86_64`, `arm64`).
  var system: String = "an unknown system"
  var architecture: String?
  /// Who ran it: `--name`, or the nickname this clone joined a classroom with; `nil` when neither.
  var learner: String?

  /// Passed, passed with warnings, or blocked: what the classroom is told.
  var result: Snapshot.Doctor {
    if checks.contains(where: { $0.verdict == .blocking }) { return .blocked }
    return checks.contains(where: { $0.verdict == .warning }) ? .warnings : .passed
  }

  /// 1 when something blocks the course, 0 otherwise.
  var exitStatus: Int32 { result == .blocked ? 1 : 0 }

  /// What the line says when nobody is named.
  static let unnamed = "no name"

  /// The line to paste to the instructor: the result, what failed by name, who
  /// ran it, the system, the toolchain and the estimate.
  var line: String {
    let swift = checks.first { $0.id == "swift" && $0.verdict == .ok }?.summary ?? "Swift ?"
    var parts = ["course doctor: \(result.rawValue)"]
    let blocking = checks.filter { $0.verdict == .blocking }.map(\.id)
    let warning = checks.filter { $0.verdict == .warning }.map(\.id)
    if !blocking.isEmpty { parts.append("blocked by " + blocking.joined(separator: ", ")) }
    if !warning.isEmpty { parts.append("warnings: " + warning.joined(separator: ", ")) }
    parts.append(learner ?? Self.unnamed)
    parts.append(system)
    parts.append(swift + (architecture.map { " " + $0 } ?? ""))
    if let firstBuildRange { parts.append("first build " + firstBuildRange) }
    return parts.joined(separator: " · ")
  }

  /// A name as the line shows it: trimmed, without control or invisible formatting
  /// characters, at most 24 characters; `nil` when nothing is left.
  static func cleanName(_ text: String?) -> String? {
    guard let text else { return nil }
    let kept = String(
      String.UnicodeScalarView(
        text.unicodeScalars.filter {
          $0.properties.generalCategory != .control && $0.properties.generalCategory != .format
        })
    ).trimmingCharacters(in: .whitespacesAndNewlines)
    return kept.isEmpty ? nil : String(kept.prefix(24))
  }

  private enum CodingKeys: String, CodingKey {
    case result, checks, firstBuildSeconds, firstBuildRange, line, learner, system, architecture
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(result.rawValue, forKey: .result)
    try container.encode(checks, forKey: .checks)
    try container.encodeIfPresent(firstBuildSeconds, forKey: .firstBuildSeconds)
    try container.encodeIfPresent(firstBuildRange, forKey: .firstBuildRange)
    try container.encodeIfPresent(learner, forKey: .learner)
    try container.encode(system, forKey: .system)
    try container.encodeIfPresent(architecture, forKey: .architecture)
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
