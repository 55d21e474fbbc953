import StageTesting
import Testing

@testable import Lesson03

// Task 9 (Docs/03-DependencyInjection.md): pin what a retry after a failure does,
// with a spy that records the calls. `swift run course check 03` runs these
// against the reference and its faults.

@MainActor
struct RetryTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 9", in: "Docs/03-DependencyInjection.md", "write tests of retry() after a failure, then replace this one")
  }
}
