import StageTesting
import Testing

@testable import Lesson05

// Task 9 (Docs/05-CachingRepository.md): pin what the caching repository answers
// when the cache allows it, when the network fails and when the disk does, with
// doubles you write in Doubles.swift. `swift run course check 05` runs these
// against the reference and its faults.

struct CacheAnswerTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 9", in: "Docs/05-CachingRepository.md",
      "write tests of what the repository answers from the cache and when a tier fails, then replace this one")
  }
}
