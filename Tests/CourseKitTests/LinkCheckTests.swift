import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that README's and Docs' relative links resolve, anchors included.
struct LinkCheckTests {
  static func course() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace()
    try folder.write(
      "README.md",
      "# Course\n\nRead [the setup](Docs/Setup.md) and [Linux](Docs/Setup.md#on-linux), [below](#work-a-lesson),\n"
        + "[the hints](Docs/hints/), and ![a picture](Docs/shot.png \"A title\").\n\n## Work a lesson\n\n"
        + "See <https://example.com>, [the site](https://www.swift.org/install/) and [mail](mailto:a@example.com).\n")
    try folder.write(
      "Docs/Setup.md",
      "# Setup\n\n## On Linux\n\n## The `course` CLI\n\n## On Linux\n\nBack to [the README](../README.md#course).\n")
    try folder.write("Docs/shot.png", "png")
    return folder
  }

  @Test func resolvingLinksAndAnchorsPass() throws {
    let folder = try Self.course()
    let checks = LinkCheck.checks(in: folder.workspace)
    #expect(checks.allSatisfy { $0.ok }, "\(checks.map(\.text))")
    #expect(
      checks.map(\.text) == [
        "README.md, Docs/: the 6 relative link(s) in 4 file(s) resolve, anchors included"
      ], "the web and mail links are not followed; Docs/hints/01-Intro.md is read too")
  }

  /// The course's own README, docs and fault lists: every relative link resolves.
  @Test func theCoursesOwnLinksResolve() {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    let checks = LinkCheck.checks(in: Workspace(root: root))
    #expect(checks.allSatisfy { $0.ok }, "\(checks.filter { !$0.ok }.map(\.text))")
  }

  @Test func aMissingFileIsNamedWithItsLine() throws {
    let folder = try Self.course()
    try folder.write("Docs/Setup.md", "# Setup\n\nSee [benchmarks](Benchmarks.md).\n")
    let checks = LinkCheck.checks(in: folder.workspace)
    #expect(
      checks.map(\.text).contains(
        "Docs/Setup.md:3 links to `Benchmarks.md`, but Docs/Benchmarks.md does not exist"), "\(checks.map(\.text))")
  }

  @Test func aMissingAnchorIsNamed() throws {
    let folder = try Self.course()
    try folder.write(
      "README.md",
      "# Course\n\n[Xcode](Docs/Setup.md#in-xcode) and [here](#nowhere).\n[CLI](Docs/Setup.md#the-course-cli)\n")
    let texts = LinkCheck.checks(in: folder.workspace).map(\.text)
    #expect(
      texts.contains(
        "README.md:3 links to `Docs/Setup.md#in-xcode`, but Docs/Setup.md has no heading whose anchor is `#in-xcode`"),
      "\(texts)")
    #expect(
      texts.contains { $0.hasPrefix("README.md:3 links to `#nowhere`, but README.md has no heading") }, "\(texts)")
    #expect(!texts.contains { $0.contains("the-course-cli") }, "backticks in a heading are dropped from its anchor")
  }

  @Test func aRepeatedHeadingGetsANumberedAnchor() {
    let anchors = LinkCheck.anchors(in: "# A\n\n## On Linux\n\n```\n## Not a heading\n```\n\n## On Linux\n")
    #expect(anchors == ["a", "on-linux", "on-linux-1"])
  }

  @Test func linksInCodeAreText() {
    let markdown = "`[x](nowhere.md)` and ``a `[y](gone.md)` b``\n\n```markdown\n[z](missing.md)\n```\n[ok](real.md)\n"
    #expect(LinkCheck.links(in: markdown) == [LinkCheck.Link(line: 6, target: "real.md")])
  }

  @Test func aLinkOutOfThePackageIsBroken() throws {
    let folder = try Self.course()
    try folder.write("Docs/Setup.md", "# Setup\n\n[design](../../shared/design.md)\n")
    let texts = LinkCheck.checks(in: folder.workspace).map(\.text)
    #expect(texts.contains("Docs/Setup.md:3 links to `../../shared/design.md`, but it points outside the package"))
  }

  @Test func verifyFailsOnABrokenLinkAndSaysWhere() throws {
    let folder = try Self.course()
    try folder.write("Docs/Setup.md", "# Setup\n\n## On Linux\n\nSee [benchmarks](Benchmarks.md).\n")
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1, "\(output)")
    #expect(output.contains("Links\n  ✘ Docs/Setup.md:5 links to `Benchmarks.md`"), "\(output)")
    #expect(output.contains("link(s) in README.md, Docs/ or Faults/ do not resolve"), "\(output)")
    #expect(!output.contains("break the contract"), "the stages themselves keep it: \(output)")
  }

  @Test func verifyPassesWhenEveryLinkResolves() throws {
    let folder = try Self.course()
    let (status, output, _) = folder.run(.verify)
    #expect(status == 0, "\(output)")
    #expect(output.contains("Links\n  ✔ README.md, Docs/: the 6 relative link(s)"), "\(output)")
  }
}
