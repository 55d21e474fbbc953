import Testing

@testable import CourseKit

/// Reading the task a test's message names, whatever the runner wrapped it in.
struct TaskReferenceTests {
  @Test(arguments: [
    (
      #"Task 3 "Map rows to products and back" (Docs/04-LocalPersistence.md): expected 9.99, got 10"#,
      TaskReference(
        task: 3, title: "Map rows to products and back", doc: "Docs/04-LocalPersistence.md",
        detail: "expected 9.99, got 10")
    ),
    (
      "Caught error: Not done yet: Task 1 in Docs/04-LocalPersistence.md: migration 1 should CREATE TABLE products",
      TaskReference(
        task: 1, title: nil, doc: "Docs/04-LocalPersistence.md",
        detail: "not done yet: migration 1 should CREATE TABLE products")
    ),
    (
      #"Test x() skipped: "Task 1 "Use the injected session" (Docs/01-ViewCallsURLSession.md): skipped until load() works""#,
      TaskReference(
        task: 1, title: "Use the injected session", doc: "Docs/01-ViewCallsURLSession.md",
        detail: "skipped until load() works")
    ),
    (
      #"Task 4 "Save all or nothing" (Docs/04-LocalPersistence.md): Task 1 is not done yet: Not done yet: Task 1 in Docs/04-LocalPersistence.md: x"#,
      TaskReference(
        task: 4, title: "Save all or nothing", doc: "Docs/04-LocalPersistence.md",
        detail: "Task 1 is not done yet: Not done yet: Task 1 in Docs/04-LocalPersistence.md: x")
    ),
  ])
  func readsTheTaskAMessageNames(text: String, expected: TaskReference) {
    #expect(TaskReference.find(in: text) == expected)
  }

  /// A real note (Lesson05, `saysHowLongAgo`): the expectation's expansion quotes
  /// the stub's text, and the `StageGuide` comment comes after it.
  @Test func aNoteNamesItsTaskByTheGuidesCommentBeforeAStubItQuotes() {
    let stub =
      "Not done yet: Task 8 in Docs/05-CachingRepository.md: updatedText(fetchedAt:now:) should say how long ago"
    let comment =
      #"Task 8 "Show how fresh it is" (Docs/05-CachingRepository.md): 0.0 s after the fetch the screen says "#
      + #""Updated just now", got "\#(stub)""#
    let note = TestNote(
      test: "saysHowLongAgo(age:text:)",
      messages: [#"Expectation failed: (said → "\#(stub)") == (text → "Updated just now")"#, comment])
    #expect(
      TaskReference.find(in: note)
        == TaskReference(
          task: 8, title: "Show how fresh it is", doc: "Docs/05-CachingRepository.md",
          detail: #"0.0 s after the fetch the screen says "Updated just now", got "\#(stub)""#))
    #expect(
      TaskReference.find(in: TestNote(test: "a()", messages: ["Caught error: \(stub)"]))?.detail
        == "not done yet: updatedText(fetchedAt:now:) should say how long ago",
      "without a guide's comment, the stub names the task")
  }

  @Test func aMessageWithoutATaskHasNone() {
    #expect(TaskReference.find(in: "Expectation failed: (a == b)") == nil)
    #expect(TaskReference.find(in: #"Task three "x" (Docs/a.md): y"#) == nil)
  }

  @Test func anchorsFollowGitHubHeadings() {
    #expect(
      StageTask(number: 3, title: "Map rows to products and back").section(in: Stage(number: "04", name: "X"))
        == "Docs/04-X.md#task-3-map-rows-to-products-and-back")
    #expect(StageTask(number: 1, title: "Judge an entry's age").anchor == "task-1-judge-an-entrys-age")
    #expect(
      StageTask(number: 2, title: "Build requests from an `Endpoint`").anchor
        == "task-2-build-requests-from-an-endpoint")
  }
}
