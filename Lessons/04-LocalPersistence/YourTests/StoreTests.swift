import StageTesting
import Testing

@testable import Lesson04

// Task 7 (Docs/04-LocalPersistence.md): pin what the SQLite store keeps, on a
// database file of each test's own. `swift run course check 04` runs these
// against the reference and its faults.

struct StoreTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 7", in: "Docs/04-LocalPersistence.md", "write tests of what the store keeps, then replace this one")
  }
}
