import Testing

@testable import CourseKit

/// What `course check` shows under a failure's comment: what was thrown, once, on one line.
struct IssueEvidenceTests {
  static let task1 = #"Task 1 "Put a repository in front of the data source" (Docs/03-DependencyInjection.md): "#
  static let task3 = #"Task 3 "Build requests from an Endpoint" (Docs/02-DataSources.md): "#

  static func evidence(_ messages: [String]) throws -> [String] {
    let note = TestNote(test: "a()", messages: messages)
    let reference = try #require(TaskReference.find(in: note), "the note names a task: \(messages)")
    return IssueEvidence.lines(of: note, shown: reference)
  }

  /// A real note (Lesson03, `passesOneProductThrough`): `Issue.record(error, comment)`.
  @Test func aCaughtErrorIsShownWithTheRunnersWords() throws {
    let messages = [
      #"Caught error: .transport("x")"#,
      Self.task1 + "product(id: 9) should return the source's product 9, Kettle; it threw instead",
    ]
    #expect(try Self.evidence(messages) == [#"Caught error: .transport("x")"#])
  }

  /// A real note (Lesson02, `buildsAPageRequest`, with `Endpoint.urlRequest` throwing):
  /// `StageGuide.attempt` records `(error → …) == nil`.
  @Test func anExpansionThatNamesTheThrownErrorIsShownWithoutItsPrefix() throws {
    let messages = [
      #"Expectation failed: (error → .invalidRequest("no URL for https://catalog.example/api")) == nil"#,
      Self.task3 + "products(limit: 5, skip: 10) should build a URLRequest; it threw instead",
    ]
    #expect(
      try Self.evidence(messages) == [#"(error → .invalidRequest("no URL for https://catalog.example/api")) == nil"#])
    let expectedError = [
      #"Expectation failed: expected error ".http(status: 404, message: nil)" of type RemoteDataSourceError, "#
        + #"but ".transport("x")" of type RemoteDataSourceError was thrown instead"#,
      Self.task1 + "the source's 404 for product 404 should reach the caller unchanged",
    ]
    #expect(try Self.evidence(expectedError) == [String(expectedError[0].dropFirst("Expectation failed: ".count))])
    let none = ["Expectation failed: an error was expected but none was thrown", expectedError[1]]
    #expect(try Self.evidence(none) == ["an error was expected but none was thrown"])
  }

  @Test func anExpansionTheCommentAlreadySaysIsNotRepeated() throws {
    let booleans = [
      #"Expectation failed: (shared == 0 → false) && (injected == ["GET /products"] → <not evaluated>)"#,
      Self.task1 + "load() sent 1 request(s) through URLSession.shared",
    ]
    #expect(try Self.evidence(booleans) == [], "values the comment describes")
    let noError = [
      "Expectation failed: (result.failure as? RemoteDataSourceError → nil) == .offline",
      Self.task1 + "expected .offline, got success",
    ]
    #expect(try Self.evidence(noError) == [], "a nil error says nothing")
  }

  /// Untouched lessons: a stub of a task the comment already calls unfinished
  /// is not repeated; a stub under its own task's line that only says "it threw"
  /// is shown, since its text is the to-do; a stub of another task is shown.
  @Test func aStubTheLineAlreadyNamesIsNotRepeated() throws {
    let stub1 = "Not done yet: Task 1 in Docs/03-DependencyInjection.md: product(id:) should return remote.product(id:)"
    let sameTask = ["Caught error: \(stub1)", Self.task1 + "product(id: 9) should return product 9; it threw instead"]
    #expect(try Self.evidence(sameTask) == ["Caught error: \(stub1)"], "what threw, and what to write")
    let saidSo = ["Caught error: \(stub1)", Self.task1 + "Task 1 is not done yet, and this check needs it. x"]
    #expect(try Self.evidence(saidSo) == [], "the line already says Task 1 is not done")
    let stub3 =
      "Not done yet: Task 3 in Docs/02-DataSources.md: Endpoint.urlRequest(baseURL:) should build the URLRequest"
    let named = [
      "Expectation failed: (error → \(stub3)) == nil",
      #"Task 4 "Fetch" (Docs/02-DataSources.md): Task 3 is not done yet, and this check needs it. x; it threw instead"#,
    ]
    #expect(try Self.evidence(named) == [])
    let other = ["Caught error: \(stub1)", #"Task 7 "Wire" (Docs/03-DependencyInjection.md): x; it threw instead"#]
    #expect(try Self.evidence(other) == ["Caught error: \(stub1)"], "Task 7's line does not say Task 1 is unfinished")
  }

  @Test func longOrMultilineEvidenceIsCutToOneLine() throws {
    let long = "Caught error: " + String(repeating: "decoding(\"x\")\n  ", count: 40)
    let lines = try Self.evidence([long, Self.task1 + "it threw instead"])
    let line = try #require(lines.first)
    #expect(line.count == IssueEvidence.limit && line.hasSuffix("…") && !line.contains("\n"), "\(line)")
    #expect(line.hasPrefix(#"Caught error: decoding("x") decoding("x")"#), "\(line)")
  }

  /// Tests that share a line show each piece of evidence once, naming the tests
  /// when not all of them gave it, and at most `evidenceShown` pieces.
  @Test func testsSharingALineShowEachPieceOnce() {
    let detail = "the store must open first; it threw instead"
    func failure(_ test: String, _ evidence: String) -> StageReport.Failure {
      StageReport.Failure(test: test, detail: detail, evidence: ["Caught error: \(evidence)"])
    }
    let plain = Style(colored: false)
    #expect(
      StageReport.failureLines([failure("a()", ".offline"), failure("b()", ".offline")], style: plain)
        == ["  ✘ a() and b(): \(detail)", "    Caught error: .offline"])
    #expect(
      StageReport.failureLines([failure("a()", ".offline"), failure("b()", ".busy")], style: plain)
        == ["  ✘ a() and b(): \(detail)", "    a(): Caught error: .offline", "    b(): Caught error: .busy"])
    let many = (1...5).map { failure("a()", ".e\($0)") }
    #expect(
      StageReport.failureLines(many, style: plain)
        == ["  ✘ a(): \(detail)"] + (1...3).map { "    Caught error: .e\($0)" } + ["    … and 2 more"])
  }
}
