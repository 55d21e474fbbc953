import StageTesting
import Testing

@testable import Lesson03

// Task 8 (Docs/03-DependencyInjection.md): pin the state a load ends in, after a
// success, an empty answer and a failure, with a stub repository you write here.
// `swift run course check 03` runs these against the reference and its faults.

@MainActor
struct LoadStateTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 8", in: "Docs/03-DependencyInjection.md", "write tests of the state load() ends in, then replace this one")
  }
}
