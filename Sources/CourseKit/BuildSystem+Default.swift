import Foundation

/// Which build system the toolchain's SwiftPM uses when told nothing, asked once per toolchain.
///
/// `swift build --experimental-dump-help` describes every option as JSON
/// (swift-argument-parser's format), `--build-system`'s default value
/// included: that is SwiftPM's own word, from 6.0 on. When it cannot be read,
/// the version decides: Swift Build from Swift 6.4. Asking takes a second, so
/// the answer is kept in `.build/course/toolchain-default`, under the
/// toolchain's identity (the `swift` that PATH finds, its size and date, and
/// what picks a toolchain on macOS), and asked again when that changes.
extension BuildSystem {
  /// The cache, relative to the package root.
  static let defaultCache = ".build/course/toolchain-default"

  /// The toolchain's default, from the cache or by asking SwiftPM.
  ///
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  static func toolchainDefault(
    runner: any CommandRunning, workspace: Workspace, environment: [String: String]
  ) throws -> Kind {
    let identity = toolchainIdentity(environment: environment)
    let cache = workspace.url(defaultCache)
    if let text = try? String(contentsOf: cache, encoding: .utf8) {
      let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
      if lines.count >= 2, lines[0] == identity, let kind = Kind(rawValue: lines[1]) { return kind }
    }
    let kind = try askDefault(runner: runner, in: workspace.root)
    try? FileManager.default.createDirectory(at: cache.deletingLastPathComponent(), withIntermediateDirectories: true)
    try? Data("\(identity)\n\(kind.rawValue)\n".utf8).write(to: cache)
    return kind
  }

  /// Asks SwiftPM: its options as JSON, then its version; native when neither answers.
  static func askDefault(runner: any CommandRunning, in directory: URL) throws -> Kind {
    func output(_ arguments: [String]) throws -> String? {
      do {
        let result = try runner.run(arguments, in: directory, timeout: 60, onLine: { _ in })
        return result.status == 0 && !result.timedOut ? result.output : nil
      } catch CourseError.interrupted {
        throw CourseError.interrupted
      } catch {
        return nil
      }
    }
    if let help = try output(["swift", "build", "--experimental-dump-help"]), let kind = defaultKind(dumpedHelp: help) {
      return kind
    }
    if let version = try output(["swift", "--version"]), let kind = defaultKind(version: version) { return kind }
    return .native
  }

  /// The default of `--build-system` in swift-argument-parser's JSON description of `swift build`.
  static func defaultKind(dumpedHelp text: String) -> Kind? {
    // The JSON may follow warnings on other lines; it starts at the first brace.
    guard let start = text.firstIndex(of: "{"),
      let tool = try? JSONDecoder().decode(ToolInfo.self, from: Data(text[start...].utf8))
    else { return nil }
    let option = tool.command.arguments?.first { argument in
      argument.names?.contains { $0.kind == "long" && $0.name == "build-system" } ?? false
    }
    return option?.defaultValue.flatMap { Kind(rawValue: $0) }
  }

  /// The default a toolchain's version implies: Swift Build from Swift 6.4 ("Swift version 6.4", "6.4-dev").
  static func defaultKind(version text: String) -> Kind? {
    guard let range = text.range(of: #"Swift version (\d+)\.(\d+)"#, options: .regularExpression) else { return nil }
    let numbers = text[range].dropFirst("Swift version ".count).split(separator: ".").compactMap { Int($0) }
    guard numbers.count == 2 else { return nil }
    return (numbers[0], numbers[1]) >= (6, 4) ? .swiftbuild : .native
  }

  /// What identifies the toolchain `swift` runs: the first `swift` on PATH, its
  /// size and date, and on macOS what picks Xcode's toolchain.
  static func toolchainIdentity(environment: [String: String]) -> String {
    let manager = FileManager.default
    let folders = (environment["PATH"] ?? "").split(separator: ":").map(String.init)
    var parts: [String] = []
    if let swift = folders.map({ "\($0)/swift" }).first(where: manager.isExecutableFile(atPath:)) {
      let real = URL(fileURLWithPath: swift).resolvingSymlinksInPath().path
      let attributes = try? manager.attributesOfItem(atPath: real)
      let size = (attributes?[.size] as? NSNumber)?.intValue ?? 0
      let date = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
      parts.append("\(real) \(size) \(Int(date))")
    }
    for name in ["DEVELOPER_DIR", "TOOLCHAINS"] { parts.append("\(name)=\(environment[name] ?? "")") }
    parts.append(
      "xcode-select=" + ((try? manager.destinationOfSymbolicLink(atPath: "/var/db/xcode_select_link")) ?? ""))
    return parts.joined(separator: " ")
  }

  /// The part of swift-argument-parser's `--experimental-dump-help` JSON that names options and their defaults.
  private struct ToolInfo: Decodable {
    var command: CommandInfo
  }

  private struct CommandInfo: Decodable {
    var arguments: [ArgumentInfo]?
  }

  private struct ArgumentInfo: Decodable {
    var names: [NameInfo]?
    var defaultValue: String?
  }

  private struct NameInfo: Decodable {
    var kind: String
    var name: String
  }
}
