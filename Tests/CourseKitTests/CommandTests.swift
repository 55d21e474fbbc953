import CourseKit
import Testing

struct CommandTests {
  @Test(arguments: [
    ([], Command.status),
    (["status"], .status),
    (["verify"], .verify),
    (["--help"], .help(topic: nil)),
    (["help"], .help(topic: nil)),
    (["help", "verify"], .help(topic: "verify")),
    (["verify", "--help"], .help(topic: "verify")),
    (["status", "-h"], .help(topic: "status")),
  ])
  func parses(arguments: [String], command: Command) throws {
    #expect(try Command.parse(arguments) == command)
  }

  @Test(arguments: [["frobnicate"], ["verify", "--fast"], ["help", "nothing"], ["verify", "extra"]])
  func rejectsWhatItDoesNotKnow(arguments: [String]) {
    #expect(throws: CourseError.self) { try Command.parse(arguments) }
  }

  @Test func everyCommandHasHelp() {
    for topic in ["status", "verify"] {
      #expect(Command.helpText(topic).contains("USAGE: swift run course"))
    }
    #expect(Command.helpText(nil).contains("verify"))
  }

  @Test func theVerifyHelpDescribesEveryCheck() {
    let help = Command.helpText("verify")
    for clause in [
      "fatalError", "## Your files", "## Concepts", "## Tasks", "ForeignNames", "hangs", "SolutionNN passes",
    ] {
      #expect(help.contains(clause), "`course help verify` should describe the check about \(clause)")
    }
  }

  @Test(arguments: [
    ([:], true, true),
    (["NO_COLOR": "1"], true, false),
    ([:], false, false),
    (["TERM": "dumb"], true, false),
  ])
  func coloursOnlyATerminalWithoutNoColor(environment: [String: String], isTerminal: Bool, colored: Bool) {
    #expect(Style.detect(environment: environment, isTerminal: isTerminal).colored == colored)
  }

  @Test func readsStageFolderNames() {
    #expect(Stage(folderName: "01-ViewCallsURLSession") == Stage(number: "01", name: "ViewCallsURLSession"))
    #expect(Stage(folderName: "SolutionLinks") == nil)
    #expect(Stage(folderName: "1-Short") == nil)
  }
}
