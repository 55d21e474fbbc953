import Foundation
import Testing

@testable import CourseKit

/// `course verify` checks that the code names a stage doc presents exist in the stage (contract item 6).
struct DocNamesCheckTests {
  static let doc = """
    # Intro

    ## Concepts

    A `Product` has a `price`; `ProductStore.save(_:)` keeps it, and `init(baseURL:session:)` takes the
    session. `.loaded([Product])` and `@MainActor`; the test `savesOneProduct` checks it. A view calls
    `.refreshable`. See `Store.swift` and `Sources/FakeCatalog/`.

    ```swift
    let sketch = SomethingOnlyInASketch()
    ```

    ## Tasks

    Run `swift test --filter Lesson01`, then `INSERT` into `updated_at` with `42`, `{"id": 1}`, `try?` and
    `guard ... return`.

    ### Task 1: Pass a

    ### Task 2: Pass b

    ## Interview questions

    Would `NotInTheCode` help?
    """

  static func stage() throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace()
    try folder.write("Docs/01-Intro.md", doc)
    try folder.write(
      "Solutions/01-Intro/Store.swift",
      """
      @MainActor final class ProductStore {
        init(baseURL: URL, session: URLSession) {}
        /// Comments do not count: OnlyInAComment.
        func save(_ product: Product) { print("a bare word may be text: OnlyInAString") }
      }
      enum State { case loaded([Product]) }
      """)
    try folder.write("Lessons/01-Intro/Product.swift", "struct Product { var price: Decimal }\n")
    try folder.write("Tests/01-Intro/StoreTests.swift", "struct StoreTests { @Test func savesOneProduct() {} }\n")
    try folder.write("Sources/FakeCatalog/FakeCatalogAPI.swift", "struct FakeCatalogAPI {}\n")
    return folder
  }

  @Test func aDocWhoseNamesAllExistKeepsTheContract() throws {
    let folder = try Self.stage()
    let (status, output, _) = folder.run(.verify)
    #expect(status == 0, "\(output)")
    #expect(output.contains("✔ Docs/01-Intro.md: the 10 code names in ## Concepts and ## Tasks exist"), "\(output)")
  }

  @Test func aDocNamingSomethingTheCodeLacksBreaksIt() throws {
    let folder = try Self.stage()
    try folder.write("Docs/01-Intro.md", Self.doc.replacingOccurrences(of: "`price`", with: "`cost`"))
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(
      output.contains(
        "✘ Docs/01-Intro.md names `cost` under ## Concepts, but `cost` is not a name in Lessons/01-Intro, "
          + "Solutions/01-Intro, Tests/01-Intro or Sources/"), "\(output)")
  }

  @Test func aMissingLabelOrMemberBreaksIt() throws {
    let folder = try Self.stage()
    try folder.write(
      "Docs/01-Intro.md",
      Self.doc.replacingOccurrences(of: "`ProductStore.save(_:)`", with: "`ProductStore.save(all:)`"))
    let (_, output, _) = folder.run(.verify)
    #expect(output.contains("names `ProductStore.save(all:)` under ## Concepts, but `all` is not a name"), "\(output)")
  }

  @Test func aNameOnlyInACommentNeverCountsAndOneOnlyInAStringCountsAsABareWord() throws {
    let folder = try Self.stage()
    try folder.write("Docs/01-Intro.md", Self.doc + "\n## Tasks\n\n`OnlyInAString`\n")
    #expect(folder.run(.verify).status == 0, "a bare word may be SQL, a header or message text in a string")
    for span in ["OnlyInAComment", "OnlyInAString()", "ProductStore.OnlyInAString"] {
      try folder.write("Docs/01-Intro.md", Self.doc + "\n## Tasks\n\n`\(span)`\n")
      let (status, output, _) = folder.run(.verify)
      #expect(status == 1, "`\(span)` is not a name of the code")
      #expect(output.contains("is not a name in"), "\(output)")
    }
  }

  @Test func aFileTheStageDoesNotHaveBreaksIt() throws {
    let folder = try Self.stage()
    try folder.write("Docs/01-Intro.md", Self.doc.replacingOccurrences(of: "`Store.swift`", with: "`Shop.swift`"))
    let (status, output, _) = folder.run(.verify)
    #expect(status == 1)
    #expect(output.contains("✘ Docs/01-Intro.md names the file `Shop.swift` under ## Concepts"), "\(output)")
  }

  // MARK: - Names only the reference knows

  static let next = Stage(number: "02", name: "Next")

  /// Stage 02 with a reference that declares `types` in Tier.swift, and a lesson that declares `Product`.
  static func nextStage(declaring types: String) throws -> TemporaryWorkspace {
    let folder = try TemporaryWorkspace(stages: [next.folder])
    try folder.write("Solutions/02-Next/Tier.swift", types)
    try folder.write("Lessons/02-Next/Product.swift", "struct Product {}\n")
    return folder
  }

  /// The lines of `referenceNameChecks` for `doc`.
  static func referenceNames(_ doc: String, in folder: borrowing TemporaryWorkspace, stage: Stage = next)
    -> [StageVerdict.Check]
  {
    DocNamesCheck.referenceNameChecks(doc: doc, of: stage, in: folder.workspace)
  }

  /// A type that only the solution declares is the reference's design: a doc
  /// that names it, in prose or in a sketch, gives it away before the learner passes.
  @Test func aTypeOnlyTheSolutionDeclaresBreaksItWhereverTheDocNamesIt() throws {
    let folder = try Self.nextStage(
      declaring: "struct MemoryTier { enum Slot { case one } }\nactor Flight {}\nclass func notAType() {}\n")
    let doc = """
      # Next

      The reference keeps a MemoryTier in front of a `Product`.

      ```swift
      let tier = MemoryTier()
      ```

      Flight is a word here, and a type in `Slot` and `Flight.start()`.
      """
    let result = Self.referenceNames(doc, in: folder)
    #expect(
      result.map(\.text) == [
        "Docs/02-Next.md:3 names `MemoryTier` (2 times), a type that only Solutions/02-Next declares: the learner "
          + "cannot see it before passing, so it gives the reference's design away. Say what must hold without the "
          + "name, or move the passage to Docs/02-Next-Designs.md",
        "Docs/02-Next.md:9 names `Flight` (2 times), a type that only Solutions/02-Next declares: the learner "
          + "cannot see it before passing, so it gives the reference's design away. Say what must hold without the "
          + "name, or move the passage to Docs/02-Next-Designs.md",
        "Docs/02-Next.md:9 names `Slot`, a type that only Solutions/02-Next declares: the learner cannot see it "
          + "before passing, so it gives the reference's design away. Say what must hold without the name, or move "
          + "the passage to Docs/02-Next-Designs.md",
      ], "a one-word name counts in code only; a compound one in prose too")
    #expect(result.map(\.ok) == [false, false, false])
    let clean = Self.referenceNames("# Next\n\nFlight delays: a `Product` waits.\n", in: folder)
    #expect(clean.map(\.ok) == [true] && clean.first?.text.contains("names none of the 3 types") == true)
  }

  /// What the learner can read before passing is no secret: the lesson's
  /// stubs, the suite, the course's infrastructure, and the libraries' names.
  @Test func aTypeTheLearnerCanSeeIsNoSecret() throws {
    let folder = try Self.nextStage(
      declaring: "struct InTheLesson {}\nstruct InTheSuite {}\nstruct InTheFixtures {}\nstruct Cache {}\n"
        + "struct InTheDemo {}\n")
    try folder.write("Lessons/02-Next/Stub.swift", "struct InTheLesson {}\n")
    try folder.write("Tests/02-Next/Uses.swift", "let seen = InTheSuite()\n")
    try folder.write("Sources/CourseFixtures/Fixture.swift", "typealias InTheFixtures = Int\n")
    // The demo app reaches into a solution: reading it is reading the reference.
    try folder.write("Sources/CourseDemo/Demo.swift", "@testable import Solution02\nlet demo = InTheDemo()\n")
    let result = Self.referenceNames("`InTheLesson`, `InTheSuite`, `InTheFixtures`, `Cache`; `InTheDemo`.", in: folder)
    #expect(
      result.map(\.text).map { $0.prefix(40) } == ["Docs/02-Next.md:1 names `InTheDemo`, a t"],
      "the lesson, the suite, Sources/ and ForeignNames (Store5's `Cache`) are visible: \(result.map(\.text))")
  }

  /// Stage 01 is the anti-pattern, fixed in place: its doc may name what the solution adds.
  @Test func stage01MayNameItsSolutionsTypes() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro"])
    try folder.write("Solutions/01-Intro/Message.swift", "struct APIMessage {}\n")
    #expect(Self.referenceNames("`APIMessage`", in: folder, stage: Stage(number: "01", name: "Intro")).isEmpty)
  }

  @Test func readsTheTypesASourceDeclares() {
    let source = """
      public struct Outer<T>: Sendable {
        enum Inner { case a }
        class func make() -> Outer { fatalError() }
        func use(class: Int) {}
      }
      final class Shop {}
      actor Keeper {}
      protocol Seam: AnyObject {}
      typealias Row = [String: Int]
      extension Extended {}
      let text = "struct NotCode"
      // class NotCodeEither
      """
    #expect(
      SwiftNames(source: source).declaredTypes == ["Outer", "Inner", "Shop", "Keeper", "Seam", "Row"])
  }

  @Test(arguments: [
    ("ProductRepository", ["ProductRepository"]),
    ("load()", ["load"]),
    ("save(_:)", ["save"]),
    ("SQLiteConnection.migrate(_:)", ["SQLiteConnection", "migrate"]),
    (".networkFirst", ["networkFirst"]),
    ("@MainActor", ["MainActor"]),
    ("#require", ["require"]),
    ("init(baseURL:session:)", ["baseURL", "session"]),
    (".loaded([Product])", ["loaded"]),
    ("URLError(.cannotConnectToHost)", ["URLError"]),
    ("String?", ["String"]),
  ])
  func readsCodeReferences(span: String, names: [String]) {
    #expect(DocNamesCheck.names(inSpan: span) == names)
  }

  @Test(arguments: [
    "swift test --filter Lesson01", "Sources/FakeCatalog/", "INSERT", "ORDER BY", "updated_at", "42", "9.99",
    ".053", #"{"products": []}"#, #""19.99""#, "try?", "nil", "guard ... return", "products == []", ":memory:",
  ])
  func leavesOtherSpansAlone(span: String) {
    #expect(DocNamesCheck.names(inSpan: span) == nil)
  }

  @Test func readsNamesOutsideCommentsAndStringsButInsideInterpolations() {
    let source = ##"""
      /* block /* nested */ stillComment */ struct Shown {
        // lineComment
        let text = "plain \(interpolated) words"
        let raw = #"raw "quoted" \(notInterpolated) \#(rawInterpolated)"#
        let many = """
          multi \(multi)
          """
        func `default`() {}
      }
      """##
    let names = SwiftNames(source: source).identifiers
    for name in ["Shown", "text", "interpolated", "raw", "rawInterpolated", "many", "multi", "default"] {
      #expect(names.contains(name), "\(name) is code")
    }
    for name in ["block", "nested", "stillComment", "lineComment", "plain", "words", "quoted", "notInterpolated"] {
      #expect(!names.contains(name), "\(name) is in a comment or a string")
    }
  }

  @Test func readsInlineCodeSpansTheCommonMarkWay() {
    #expect(StageDoc.codeSpans(in: "a `b` c ``d`e`` `f\ng` `unclosed") == ["b", "d`e", "f g"])
  }
}
