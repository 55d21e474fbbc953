import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that a stage doc reads in about 20 minutes before its
/// tasks: at most 3,000 words up to `## Tasks`, 5,000 in all, counted as `wc -w` does.
struct DocLengthCheckTests {
  static let stage = Stage(number: "05", name: "CachingRepository")

  /// A doc of `before` words ahead of `## Tasks` and `after` words under it.
  static func doc(before: Int, after: Int) -> String {
    let words = { (count: Int) in (0..<count).map { $0 % 12 == 11 ? "word.\n" : "word " }.joined() }
    // The heading's own two words count in the part after it.
    return words(before) + "\n## Tasks\n\n" + words(max(0, after - 2))
  }

  private func checks(_ markdown: String, stage: Stage = Self.stage) throws -> [StageVerdict.Check] {
    let folder = try TemporaryWorkspace(stages: [stage.folder])
    try folder.write(stage.doc, markdown)
    return DocLengthCheck.checks(for: stage, in: folder.workspace)
  }

  @Test func aDocAtBothLimitsKeepsTheContract() throws {
    let result = try checks(Self.doc(before: 3_000, after: 2_000))
    #expect(
      result.map(\.text) == [
        "Docs/05-CachingRepository.md has 3000 words before ## Tasks (at most 3000) and 5000 in all (at most 5000)"
      ])
    #expect(result.map(\.ok) == [true])
  }

  @Test func oneWordOverEitherLimitBreaksItAndSaysWhereTheRestGoes() throws {
    let before = try checks(Self.doc(before: 3_001, after: 100))
    #expect(before.map(\.ok) == [false], "\(before.map(\.text))")
    #expect(
      before.first?.text
        == "Docs/05-CachingRepository.md has 3001 words before ## Tasks, 1 over the 3000 a learner reads in about "
        + "20 minutes before starting: move what the reference and the libraries chose, and the longer comparisons, "
        + "to Docs/05-CachingRepository-Designs.md, and the steps to Docs/hints/05-CachingRepository.md")
    let all = try checks(Self.doc(before: 2_000, after: 3_001))
    #expect(all.map(\.ok) == [false], "\(all.map(\.text))")
    #expect(
      all.first?.text.hasPrefix("Docs/05-CachingRepository.md has 5001 words in all, 1 over the limit of 5000: move")
        == true, "\(all.map(\.text))")
    let both = try checks(Self.doc(before: 3_500, after: 2_000))
    #expect(both.map(\.ok) == [false, false], "\(both.map(\.text))")
  }

  /// Stage 01 has no decisions, so no designs doc to move them to.
  @Test func stage01IsToldToMoveStepsToTheHints() throws {
    let result = try checks(Self.doc(before: 3_001, after: 0), stage: Stage(number: "01", name: "Intro"))
    #expect(
      result.first?.text.hasSuffix("20 minutes before starting: move the steps to Docs/hints/01-Intro.md, or cut")
        == true, "\(result.map(\.text))")
  }

  /// Words are what `wc -w` counts: runs between white space, so code, tables,
  /// punctuation and Markdown marks count as they stand.
  @Test(arguments: [
    ("", 0), ("one", 1), ("  two\twords\n", 2), ("`code` | table | row |", 6), ("a—b", 1), ("x\u{A0}y", 1),
    ("```swift\nlet x = 1\n```", 6), ("line\r\nnext\u{0B}\u{0C}last", 3),
  ])
  func countsWordsAsWCDoes(text: String, words: Int) {
    #expect(DocLengthCheck.words(in: text) == words)
  }

  /// A `## Tasks` inside a code block is not the heading.
  @Test func countsUpToTheTasksHeadingOutsideCodeBlocks() {
    let doc = "one two\n```markdown\n## Tasks\n```\nthree\n## Tasks\nfour five\n"
    #expect(DocLengthCheck.words(in: DocLengthCheck.beforeTasks(doc)) == 7)
    #expect(DocLengthCheck.words(in: DocLengthCheck.beforeTasks("no heading at all")) == 4)
  }

  /// What `wc -w` says of the same texts, where the machine has it: the count is
  /// the one a maintainer gets from the shell.
  @Test func agreesWithWC() throws {
    let wc = URL(fileURLWithPath: "/usr/bin/wc")
    guard FileManager.default.isExecutableFile(atPath: wc.path) else { return }
    let text = Self.doc(before: 40, after: 30) + "| a | `b()` |\n\n```swift\nlet x = [1, 2]\n```\n— dash, tab\there\n"
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("words-\(UUID().uuidString).md")
    try writeFixture(text, to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = wc
    process.arguments = ["-w", file.path]
    let pipe = Pipe()
    process.standardOutput = pipe
    try process.run()
    process.waitUntilExit()
    let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    let counted = Int(output.split(separator: " ").first ?? "")
    #expect(counted == DocLengthCheck.words(in: text), "wc -w said \(output)")
  }
}
