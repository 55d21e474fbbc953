import FakeCatalog
import Foundation
import StageTesting
import Testing

@testable import Lesson02

// Task 8 (Docs/02-DataSources.md): pin what the remote source makes of the
// catalog's answers, against FakeCatalogAPI. `swift run course check 02` runs
// these against the reference and its faults.

struct RemoteSourceTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 8", in: "Docs/02-DataSources.md",
      "write tests of what the remote source makes of an answer, then replace this one")
  }
}
