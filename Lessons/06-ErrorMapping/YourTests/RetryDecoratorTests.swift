import StageTesting
import Testing

@testable import Lesson06

// Task 9 (Docs/06-ErrorMapping.md): pin which failures the retrying source
// retries and how often, with a scripted remote source you write here.
// `swift run course check 06` runs these against the reference and its faults.
// `TestClock` needs `import CourseClock`.

struct RetryDecoratorTests {
  @Test func writeTheseTests() {
    testNotWrittenYet(
      "Task 9", in: "Docs/06-ErrorMapping.md", "write tests of what the retrying source retries, then replace this one")
  }
}
