import Lesson08
import StageTesting
import Testing

// Task 6 (Docs/08-Capstone.md): pin what the database keeps across refreshes
// and launches, through makeArticleRepository against FakeCatalogAPI and a
// database file. `swift run course check 08` runs these against the reference
// and its faults.

struct WhatTheStoreKeepsTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 6", in: "Docs/08-Capstone.md", "write tests of what the store keeps, then replace this one")
  }
}
