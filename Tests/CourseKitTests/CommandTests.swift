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
      "## Your decisions", "Designs.md", "only Solutions/NN-Name declares", "wc -w",
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

/// The learner's commands: what they accept and what they refuse.
struct LearnerCommandTests {
  @Test(arguments: [
    (["check"], Command.check(stage: nil)),
    (["check", "4"], .check(stage: "04")),
    (["check", "04"], .check(stage: "04")),
    (["hint"], .hint(stage: nil, task: nil)),
    (["hint", "04"], .hint(stage: "04", task: nil)),
    (["hint", "04", "3"], .hint(stage: "04", task: 3)),
    (["diff", "12"], .diff(stage: "12")),
    (["reset", "04"], .reset(stage: "04", force: false)),
    (["reset", "--force", "04"], .reset(stage: "04", force: true)),
    (["reset", "04", "--force"], .reset(stage: "04", force: true)),
    (["watch"], .watch(stage: nil)),
    (["watch", "--help"], .help(topic: "watch")),
    (["help", "hint"], .help(topic: "hint")),
  ])
  func parses(arguments: [String], command: Command) throws {
    #expect(try Command.parse(arguments) == command)
  }

  @Test(arguments: [
    ["check", "04", "05"], ["check", "four"], ["check", "004"], ["hint", "04", "x"], ["hint", "04", "0"],
    ["diff", "--force"], ["watch", "--fast"], ["reset", "04", "--forse"],
  ])
  func refuses(arguments: [String]) {
    #expect(throws: CourseError.self, "course \(arguments.joined(separator: " ")) should not parse") {
      try Command.parse(arguments)
    }
  }

  @Test(arguments: ["check", "hint", "diff", "reset", "watch"])
  func everyLearnerCommandHasHelpAndIsInTheOverview(command: String) throws {
    #expect(Command.helpText(command).contains("USAGE: swift run course \(command)"))
    #expect(Command.helpText(nil).contains("\n  \(command) "), "the overview lists \(command)")
    #expect(try Command.parse([command, "--help"]) == .help(topic: command))
  }

  @Test func everyCommandThatTakesAStageExplainsTheDefault() {
    for command in ["check", "hint", "diff", "reset", "watch"] {
      #expect(Command.helpText(command).contains("Without NN: the first stage"), "course help \(command)")
    }
  }
}
