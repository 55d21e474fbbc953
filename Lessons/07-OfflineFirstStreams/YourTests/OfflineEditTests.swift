import StageTesting
import Testing

@testable import Lesson07

// Task 8 (Docs/07-OfflineFirstStreams.md): pin what happens to an edit made
// offline, from the screen to the catalog, through the repository, the store
// and the engine against FakeCatalogAPI. `swift run course check 07` runs these
// against the reference and its faults.

struct OfflineEditTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 8", in: "Docs/07-OfflineFirstStreams.md",
      "write tests of an edit made offline, then replace this one")
  }
}
