import Lesson08
import StageTesting
import Testing

// Task 5 (Docs/08-Capstone.md): pin what latest() answers with, through
// makeArticleRepository against FakeCatalogAPI and a database file.
// `swift run course check 08` runs these against the reference and its faults.

struct WhatAReadServesTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 5", in: "Docs/08-Capstone.md", "write tests of what a read serves, then replace this one")
  }
}
