import Foundation
import Testing

@testable import CourseKit

/// `course propagate`: an edit to a stage's file reaches every later copy the continuity rule makes, and no more.
struct PropagateTests {
  static let stages = ["01-Intro", "02-Data", "03-Repo", "04-Cache", "05-Capstone"]
  static let dto = "struct DTO {\n  var id: Int\n}\n"
  static let source = "struct Source {\n  func load() -> Int { 1 }\n}\n"
  static let changedSource = "struct Source {\n  func load() -> Int { 1 }\n  func save() {}\n}\n"

  /// Five stages shaped like the course's: stage 02's solution adds `DTO.swift`, which
  /// 03 and 04 repeat; 04's doc lists `Source.swift`, which it changes; 05 is a capstone.
  static func course() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: stages)
    func doc(_ stage: String, files: [String]) -> String {
      "# \(stage)\n\n" + TemporaryWorkspace.decisions + "## Your files\n\n"
        + files.map { "- `\($0)`: Task 1\n" }.joined() + "\n## Tasks\n\n" + TemporaryWorkspace.tasks
    }
    try folder.write("Lessons/01-Intro/Product.swift", "struct Product {}  // TODO\n")
    try folder.write("Solutions/01-Intro/Product.swift", "struct Product {}\n")
    try folder.write("Docs/01-Intro.md", doc("01-Intro", files: ["Product.swift"]))
    for stage in ["02-Data", "03-Repo", "04-Cache"] {
      try folder.write("Lessons/\(stage)/Product.swift", "struct Product {}\n")
      try folder.write("Solutions/\(stage)/Product.swift", "struct Product {}\n")
    }
    // Stage 02: the learner writes Source.swift and adds DTO.swift, which the lesson does not have.
    try folder.write("Lessons/02-Data/Source.swift", "struct Source {}  // TODO: Task 1\n")
    try folder.write("Solutions/02-Data/Source.swift", source)
    try folder.write("Solutions/02-Data/DTO.swift", dto)
    try folder.write("Docs/02-Data.md", doc("02-Data", files: ["Source.swift"]))
    // Stage 03 repeats both and adds Repo.swift.
    for side in ["Lessons", "Solutions"] {
      try folder.write("\(side)/03-Repo/Source.swift", source)
      try folder.write("\(side)/03-Repo/DTO.swift", dto)
      try folder.write("\(side)/04-Cache/DTO.swift", dto)
      try folder.write("\(side)/04-Cache/Source.swift", changedSource)
    }
    try folder.write("Lessons/03-Repo/Repo.swift", "struct Repo {}  // TODO: Task 1\n")
    try folder.write("Solutions/03-Repo/Repo.swift", "struct Repo {}\n")
    try folder.write("Docs/03-Repo.md", doc("03-Repo", files: ["Repo.swift"]))
    try folder.write("Lessons/04-Cache/Repo.swift", "struct Repo {}\n")
    try folder.write("Solutions/04-Cache/Repo.swift", "struct Repo {}\n")
    try folder.write("Docs/04-Cache.md", doc("04-Cache", files: ["Source.swift"]))
    // Stage 05, a capstone, starts from an empty folder.
    try folder.write("Lessons/05-Capstone/Domain.swift", "struct Domain {}\n")
    try folder.write("Solutions/05-Capstone/Domain.swift", "struct Domain {}\n")
    try folder.write(
      "Docs/05-Capstone.md",
      "# Capstone\n\n## What you start with\n\n- `Domain.swift`: the domain\n\n" + TemporaryWorkspace.decisions
        + "## Your files\n\n- `Domain.swift`: Task 1\n\n## Tasks\n\n" + TemporaryWorkspace.tasks)
    // From stage 02 on, each stage has its designs doc, read after passing (course verify checks it).
    for stage in ["02-Data", "03-Repo", "04-Cache", "05-Capstone"] {
      try folder.write("Docs/\(stage)-Designs.md", "# \(stage), after you pass\n")
    }
    return folder
  }

  /// Every file of the workspace and its bytes.
  static func snapshot(_ folder: borrowing TemporaryWorkspace) -> [String: Data] {
    let root = folder.workspace.root
    let paths = FileManager.default.subpaths(atPath: root.path) ?? []
    var files: [String: Data] = [:]
    for path in paths {
      var isDirectory: ObjCBool = false
      let url = root.appendingPathComponent(path)
      if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue {
        files[path] = try? Data(contentsOf: url)
      }
    }
    return files
  }

  static func outsideStages(_ files: [String: Data]) -> [String: Data] {
    files.filter { !$0.key.hasPrefix("Lessons/") && !$0.key.hasPrefix("Solutions/") }
  }

  static func continuity(_ folder: borrowing TemporaryWorkspace) -> [StageVerdict.Check] {
    let stages = folder.workspace.stages()
    return stages.indices.flatMap { index in
      ContinuityCheck.checks(
        for: stages[index], after: index > 0 ? stages[index - 1] : nil, in: folder.workspace)
    }
  }

  @Test func anEditToStage02sDTOReachesEveryCopyAndTheContinuityCheckThenPasses() throws {
    let folder = try Self.course()
    let edited = "struct DTO {\n  var id: Int  // ids are never negative\n}\n"
    try folder.write("Solutions/02-Data/DTO.swift", edited)
    let before = Self.outsideStages(Self.snapshot(folder))

    let (status, output) = folder.run(
      .propagate(file: "Solutions/02-Data/DTO.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 0, "every copy takes the edit: \(output)")
    for copy in ["Lessons/03-Repo", "Solutions/03-Repo", "Lessons/04-Cache", "Solutions/04-Cache"] {
      #expect(try folder.read("\(copy)/DTO.swift") == edited, "\(copy)/DTO.swift gets the edit: \(output)")
      #expect(output.contains("copied to \(copy)/DTO.swift"), "\(output)")
    }
    #expect(output.contains("Stage 05-Capstone is a capstone"), "the copies end at the capstone: \(output)")
    #expect(!output.contains("Merge the edit by hand"), "\(output)")
    #expect(Self.outsideStages(Self.snapshot(folder)) == before, "nothing outside Lessons/ and Solutions/ changes")
    let broken = Self.continuity(folder).filter { !$0.ok }
    #expect(broken.isEmpty, "the continuity check passes: \(broken.map(\.text))")
    let (verifyStatus, verifyOutput, _) = folder.run(.verify)
    #expect(verifyStatus == 0, "course verify passes after propagating: \(verifyOutput)")
  }

  @Test func anEditThatMeetsALaterStagesOwnVersionIsReportedWithTheEditNotCopied() throws {
    let folder = try Self.course()
    let edited = Self.source.replacingOccurrences(of: "{ 1 }", with: "{ 2 }")
    try folder.write("Solutions/02-Data/Source.swift", edited)
    let before = Self.snapshot(folder)

    let (status, output) = folder.run(
      .propagate(file: "Solutions/02-Data/Source.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 1, "something is left to merge by hand: \(output)")
    #expect(try folder.read("Lessons/03-Repo/Source.swift") == edited, "stage 03 repeats it: \(output)")
    #expect(try folder.read("Solutions/03-Repo/Source.swift") == edited, "\(output)")
    for own in ["Lessons/04-Cache/Source.swift", "Solutions/04-Cache/Source.swift"] {
      #expect(try folder.read(own) == Self.changedSource, "\(own) is stage 04's own version, never overwritten")
    }
    #expect(
      output.contains("Docs/04-Cache.md lists `Source.swift` under ## Your files: stage 04 has its own version"),
      "\(output)")
    #expect(
      output.contains(
        "Merge the edit by hand into Lessons/04-Cache/Source.swift and Solutions/04-Cache/Source.swift"),
      "\(output)")
    #expect(output.contains("--- before/Solutions/03-Repo/Source.swift"), "the diff shows the edit: \(output)")
    #expect(output.contains("-  func load() -> Int { 1 }"), "\(output)")
    #expect(output.contains("+  func load() -> Int { 2 }"), "\(output)")
    let after = Self.snapshot(folder)
    #expect(Self.outsideStages(after) == Self.outsideStages(before), "nothing outside Lessons/ and Solutions/ changes")
    let written = Set(after.keys.filter { after[$0] != before[$0] })
    #expect(written == ["Lessons/03-Repo/Source.swift", "Solutions/03-Repo/Source.swift"], "\(written.sorted())")
  }

  @Test func anEditMadeRightBeforeAStageWithItsOwnVersionShowsTheUncommittedEdit() throws {
    let folder = try Self.course()
    try folder.commitEverything()
    let edited = Self.source.replacingOccurrences(of: "{ 1 }", with: "{ 3 }")
    try folder.write("Solutions/03-Repo/Source.swift", edited)
    let before = Self.snapshot(folder)

    let (status, output) = folder.run(
      .propagate(file: "Solutions/03-Repo/Source.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 1, "\(output)")
    #expect(output.contains("+  func load() -> Int { 3 }"), "the diff is the edit against the last commit: \(output)")
    #expect(output.contains("-  func load() -> Int { 1 }"), "\(output)")
    #expect(Self.snapshot(folder) == before, "nothing is written, .git included")
  }

  @Test func aDryRunListsTheSameCopiesAndWritesNothing() throws {
    let folder = try Self.course()
    try folder.write("Solutions/02-Data/Source.swift", Self.source + "// checked\n")
    let before = Self.snapshot(folder)

    let (status, output) = folder.run(
      .propagate(file: "Solutions/02-Data/Source.swift", dryRun: true), with: ProcessCommandRunner())

    #expect(Self.snapshot(folder) == before, "--dry-run writes nothing: \(output)")
    #expect(status == 1, "a dry run says what a run would leave to merge: \(output)")
    #expect(output.contains("would copy to Lessons/03-Repo/Source.swift"), "\(output)")
    #expect(output.contains("would copy to Solutions/03-Repo/Source.swift"), "\(output)")
    #expect(output.contains("+// checked"), "the edit to merge into stage 04 is shown as a diff: \(output)")
    #expect(output.contains("2 file(s) would be copied"), "\(output)")
  }

  @Test func aSolutionFileThatDiffersFromItsLessonIsThatStagesOwnVersion() throws {
    let folder = try Self.course()
    let own = "/// Stage 03's wording.\n" + Self.dto
    try folder.write("Solutions/03-Repo/DTO.swift", own)
    try folder.write("Solutions/02-Data/DTO.swift", Self.dto + "// edited\n")

    let (status, output) = folder.run(
      .propagate(file: "Solutions/02-Data/DTO.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 1, "\(output)")
    #expect(try folder.read("Lessons/03-Repo/DTO.swift") == Self.dto + "// edited\n", "the lesson repeats stage 02")
    #expect(try folder.read("Solutions/03-Repo/DTO.swift") == own, "the solution's own change is kept")
    #expect(try folder.read("Lessons/04-Cache/DTO.swift") == Self.dto, "the copies stop at stage 03's solution")
    #expect(
      output.contains(
        "Solutions/03-Repo/DTO.swift differs from Lessons/03-Repo/DTO.swift, though Docs/03-Repo.md does not list it"),
      "\(output)")
  }

  @Test func anEditToALessonFileThatIsNotTheLearnersGoesToTheSolutionItRepeatsAndOn() throws {
    let folder = try Self.course()
    let edited = "struct Product: Equatable {}\n"
    try folder.write("Lessons/03-Repo/Product.swift", edited)

    let (status, output) = folder.run(
      .propagate(file: "Lessons/03-Repo/Product.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 0, "\(output)")
    for copy in ["Solutions/02-Data", "Solutions/03-Repo", "Lessons/04-Cache", "Solutions/04-Cache"] {
      #expect(try folder.read("\(copy)/Product.swift") == edited, "\(copy) gets the edit: \(output)")
    }
    #expect(try folder.read("Lessons/02-Data/Product.swift") == "struct Product {}\n", "earlier copies are left")
    #expect(
      output.contains(
        "Earlier copies keep the old text: Lessons/02-Data/Product.swift is not the learner's in its stage"),
      "\(output)")
    #expect(output.contains("make it where the copies start, Solutions/01-Intro/Product.swift"), "\(output)")
    #expect(Self.continuity(folder).allSatisfy { $0.ok }, "\(Self.continuity(folder).map(\.text))")
  }

  @Test func aLearnersFileIsCopiedNowhere() throws {
    let folder = try Self.course()
    try folder.write("Lessons/03-Repo/Repo.swift", "struct Repo {}  // TODO: Task 1, reworded\n")
    let before = Self.snapshot(folder)

    let (status, output) = folder.run(
      .propagate(file: "Lessons/03-Repo/Repo.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 0, "\(output)")
    #expect(output.contains("is the learner's in stage 03"), "\(output)")
    #expect(Self.snapshot(folder) == before)
  }

  @Test func aFaultWhoseQuotedTextTheEditRemovesIsNamed() throws {
    let folder = try Self.course()
    try folder.write(
      "Faults/03-Repo.md",
      "## Task 1: Pass a\n\nTests: `ATests.swift`\n\n### The id is lost\n\nFile: `DTO.swift`\n\n"
        + "Catch it: decode an id.\n\n```swift expression\nvar id: Int\n```\n\n```swift expression\nvar id = 0\n```\n")
    try folder.write("Solutions/02-Data/DTO.swift", "struct DTO {\n  let id: Int\n}\n")

    let (status, output) = folder.run(
      .propagate(file: "Solutions/02-Data/DTO.swift", dryRun: false), with: ProcessCommandRunner())

    #expect(status == 1, "\(output)")
    #expect(
      output.contains("Faults/03-Repo.md no longer fits Solutions/03-Repo/DTO.swift: fault \"The id is lost\""),
      "\(output)")
  }

  @Test(arguments: [
    "Solutions/02-Data/YourTests/ATests.swift", "Docs/02-Data.md", "Solutions/09-Missing/DTO.swift",
    "Solutions/02-Data/Nothing.swift",
  ])
  func refusesWhatIsNotAStagesFile(path: String) throws {
    let folder = try Self.course()
    try folder.write("Solutions/02-Data/YourTests/ATests.swift", "// a test\n")
    let before = Self.snapshot(folder)
    let (status, output, _) = folder.run(.propagate(file: path, dryRun: false))
    #expect(status == 1, "\(output)")
    #expect(Self.snapshot(folder) == before)
  }

  @Test func parsesItsFileAndFlag() throws {
    #expect(
      try Command.parse(["propagate", "Solutions/02-Data/DTO.swift", "--dry-run"])
        == .propagate(file: "Solutions/02-Data/DTO.swift", dryRun: true))
    #expect(try Command.parse(["propagate", "--help"]) == .help(topic: "propagate"))
    #expect(Command.helpText("propagate").contains("USAGE: swift run course propagate FILE [--dry-run]"))
    #expect(Command.helpText(nil).contains("\n  propagate "), "the overview lists propagate")
    #expect(throws: CourseError.self) { try Command.parse(["propagate"]) }
  }
}
