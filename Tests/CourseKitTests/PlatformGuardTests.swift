import Foundation
import Testing

/// The package must build for every destination Xcode offers for `Package.swift`'s
/// platforms, an iOS simulator included, and this machine builds only for Linux.
/// So these tests read the infrastructure's sources: every API that one SDK lacks
/// must sit inside an `#if` that names the platforms that have it.
struct PlatformGuardTests {
  /// An API, where it exists, and the `#if` conditions that may guard it.
  struct Rule: CustomTestStringConvertible {
    var symbol: String
    var guards: [String]
    var testDescription: String { symbol }
  }

  static let rules: [Rule] = [
    // libproc.h ships in the macOS SDK alone; `canImport(Darwin)` is true on iOS too.
    Rule(symbol: "proc_listchildpids", guards: ["os(macOS)"]),
    Rule(symbol: "proc_pidinfo", guards: ["os(macOS)"]),
    // Foundation's Process (NSTask) does not exist on iOS.
    Rule(symbol: "Process(", guards: ["os(macOS)", "os(Linux)"]),
    // `course` starts processes on macOS and Linux only (ProcessCommandRunner.canStartProcesses).
    Rule(symbol: "posix_spawn(", guards: ["os(macOS)", "os(Linux)"]),
    // /proc is Linux's.
    Rule(symbol: "\"/proc", guards: ["os(Linux)"]),
  ]

  /// The package root: this file is Tests/CourseKitTests/PlatformGuardTests.swift.
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

  /// Whether this process can read the package's sources (a test bundle copied
  /// to a device could not).
  static var sourcesAreReadable: Bool {
    FileManager.default.fileExists(atPath: root.appendingPathComponent("Sources").path)
  }

  @Test(.enabled(if: sourcesAreReadable, "the package's sources are not on this device"), arguments: rules)
  func platformOnlyAPIIsGuardedByThePlatformsThatHaveIt(_ rule: Rule) throws {
    let sources = Self.root.appendingPathComponent("Sources")
    let files = try FileManager.default.subpathsOfDirectory(atPath: sources.path)
      .filter { $0.hasSuffix(".swift") }
    #expect(!files.isEmpty, "no sources under \(sources.path)")
    for file in files {
      let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
      for (number, line) in Self.unguardedUses(of: rule, in: text) {
        Issue.record(
          "Sources/\(file):\(number) uses \(rule.symbol) outside #if \(rule.guards.joined(separator: " or ")): \(line)")
      }
    }
  }

  @Test func theCheckSeesAnUnguardedUseAndAcceptsAGuardedOne() {
    let rule = Rule(symbol: "proc_listchildpids", guards: ["os(macOS)"])
    let darwinOnly = "#if canImport(Darwin)\n  proc_listchildpids(pid, buffer, size)\n#endif\n"
    #expect(Self.unguardedUses(of: rule, in: darwinOnly).map(\.line) == [2])
    let macOnly =
      "#if os(macOS)\n  #if DEBUG\n    proc_listchildpids(pid, buffer, size)\n  #endif\n#else\n  x()\n#endif\n"
    #expect(Self.unguardedUses(of: rule, in: macOnly).isEmpty)
    let elseBranch = "#if os(macOS)\n  a()\n#else\n  proc_listchildpids(pid, buffer, size)\n#endif\n"
    #expect(Self.unguardedUses(of: rule, in: elseBranch).map(\.line) == [4])
    let comment = "/// Lists children with proc_listchildpids on macOS.\n"
    #expect(Self.unguardedUses(of: rule, in: comment).isEmpty)
    #expect(!Self.uses("Process(", in: "let child = try ChildProcess(arguments)"))
    #expect(Self.uses("Process(", in: "let task = Process()"))
  }

  /// Whether `line` has `symbol` where an identifier starts: `Process(`, not `ChildProcess(`.
  static func uses(_ symbol: String, in line: String) -> Bool {
    var rest = line[...]
    while let range = rest.range(of: symbol) {
      let before = range.lowerBound == line.startIndex ? nil : line[line.index(before: range.lowerBound)]
      if !(before.map { $0.isLetter || $0.isNumber || $0 == "_" } ?? false) { return true }
      rest = rest[range.upperBound...]
    }
    return false
  }

  /// The lines (1-based) that use the rule's symbol in code outside every allowed guard.
  static func unguardedUses(of rule: Rule, in text: String) -> [(line: Int, text: String)] {
    // The condition of each open #if branch, innermost last; `#else` has none of its own.
    var open: [String] = []
    var found: [(line: Int, text: String)] = []
    for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = raw.trimmingCharacters(in: .whitespaces)
      if line.hasPrefix("#if ") {
        open.append(String(line.dropFirst(4)))
      } else if line.hasPrefix("#elseif "), !open.isEmpty {
        open[open.count - 1] = String(line.dropFirst(8))
      } else if line.hasPrefix("#else"), !open.isEmpty {
        open[open.count - 1] = "#else"
      } else if line.hasPrefix("#endif"), !open.isEmpty {
        open.removeLast()
      } else if !line.hasPrefix("//"), uses(rule.symbol, in: line) {
        let guarded = open.contains { condition in
          !condition.contains("!") && rule.guards.contains { condition.contains($0) }
        }
        if !guarded { found.append((index + 1, line)) }
      }
    }
    return found
  }
}
