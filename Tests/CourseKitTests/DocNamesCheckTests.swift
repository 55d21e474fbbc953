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
