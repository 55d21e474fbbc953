import CourseDemo
import Foundation
import Testing

@testable import CourseKit

/// `course demo`'s parsing and painting; the script itself runs in CourseDemoTests.
struct DemoCommandTests {
  @Test(arguments: [
    (["demo"], DemoOptions()),
    (["demo", "--base-url", "https://dummyjson.com"], DemoOptions(baseURL: URL(string: "https://dummyjson.com"))),
    (["demo", "--base-url=http://127.0.0.1:8080"], DemoOptions(baseURL: URL(string: "http://127.0.0.1:8080"))),
  ])
  func parsesItsOptions(arguments: [String], expected: DemoOptions) throws {
    #expect(try Command.parse(arguments) == .demo(expected))
  }

  @Test(arguments: [
    ["demo", "--base-url"], ["demo", "--base-url", "dummyjson.com"], ["demo", "--base-url", "ftp://example.com"],
    ["demo", "--fast"], ["demo", "now"],
  ])
  func refusesBadOptionsWithAUsageError(arguments: [String]) {
    #expect(throws: CourseError.self, "\(arguments) is a usage error") { try Command.parse(arguments) }
  }

  @Test func hasHelpThatNamesItsStepsAndOption() throws {
    #expect(try Command.parse(["demo", "--help"]) == .help(topic: "demo"))
    let help = Command.helpText("demo")
    for word in ["--base-url URL", "offline", "Idempotency-Key", "NO_COLOR", "simulates writes"] {
      #expect(help.contains(word), "`course help demo` mentions \(word)")
    }
    #expect(Command.helpText(nil).contains("\n  demo "), "the overview lists demo")
  }

  @Test func paintsOnlyWithColourAndNeverShowsMilestones() {
    let plain = Style.detect(environment: [:], isTerminal: false)
    let status = Course.demoLine(.syncStatus("syncing(pending: 1)"), style: plain)
    #expect(
      status == "  sync status: syncing(pending: 1)",
      "no escape codes off a terminal, got \(String(describing: status))")
    #expect(Course.demoLine(.milestone(.finished), style: plain) == nil, "milestones are for tests, not the screen")
    let painted = Style.detect(environment: [:], isTerminal: true)
    #expect(Course.demoLine(.heading("Step 1"), style: painted)?.contains("\u{1B}[") == true, "bold on a terminal")
    let noColor = Style.detect(environment: ["NO_COLOR": "1"], isTerminal: true)
    #expect(Course.demoLine(.heading("Step 1"), style: noColor) == "\nStep 1", "NO_COLOR wins over a terminal")
  }
}
