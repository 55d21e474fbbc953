import LessonSupport
import Testing

/// The placeholder of a "Write the test" task: a test that fails, naming the task, until the learner replaces it.
///
/// ```swift
/// @Test func aFailedLoadShowsItsFailure() {
///   testNotWrittenYet("Task 8", in: "Docs/03-DependencyInjection.md", "pin the states a load ends in")
/// }
/// ```
///
/// `course check` tells a placeholder from a real test by its message, which
/// starts with "Not done yet:" as a lesson stub's does.
public func testNotWrittenYet(
  _ task: String, in doc: String, _ what: String, sourceLocation: SourceLocation = #_sourceLocation
) {
  Issue.record(Comment(rawValue: NotDoneYet(task, in: doc, what).description), sourceLocation: sourceLocation)
}
