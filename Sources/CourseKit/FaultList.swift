import Foundation

/// The named faults a stage's "Write the test" tasks are checked against, read from `Faults/NN-Name.md`.
///
/// The file is Markdown, for instructors to read and extend:
///
/// ````markdown
/// ## Task 8: Write the test: the loading state
///
/// Tests: `LoadingStateTests.swift`
///
/// ### The loading state is never left after a failure
///
/// File: `ProductListViewModel.swift`
///
/// Catch it: load from a repository that throws, then expect `.failed`, not `.loading`.
///
/// ```swift
///       state = .failed(Self.message(for: error))
/// ```
///
/// ```swift
///       state = .loading
/// ```
/// ````
///
/// A `## Task N` heading opens a test task; its `Tests:` line names the files of
/// `YourTests/` that hold its tests. Each `###` heading under it is one fault: the
/// solution file it changes, what a test must check to catch it, then two fenced
/// blocks, the solution's text (it must occur exactly once in that file) and what
/// the fault puts in its place. A first block whose info string is
/// `swift expression` replaces an expression; otherwise whole statements.
struct FaultList: Equatable {
  /// One "Write the test" task and its faults.
  struct TestTask: Equatable {
    var number: Int
    var title: String
    /// File names in `YourTests/`, such as `LoadingStateTests.swift`.
    var testFiles: [String]
    var faults: [Fault]
  }

  /// One realistic bug, applied to a copy of the solution.
  struct Fault: Equatable {
    /// `t8f1`: the task's number and the fault's place in it; the value of `COURSE_FAULT` that turns it on.
    var id: String
    var name: String
    /// The solution file it changes, relative to Solutions/NN-Name.
    var file: String
    /// What a test has to check to catch it, said to a learner whose tests missed it.
    var catchIt: String
    var original: String
    var replacement: String
    /// Whether `original` is an expression (else: statements).
    var isExpression: Bool
  }

  var tasks: [TestTask]

  /// Where a stage's fault list lives, relative to the package root.
  static func path(of stage: Stage) -> String { "Faults/\(stage.folder).md" }

  /// Reads a fault list; problems (a fault without its two blocks, a task without tests) are in `problems`.
  init(markdown: String) {
    var tasks: [TestTask] = []
    var problems: [String] = []
    var fault: Fault?
    var blocks: [(info: String, text: String)] = []
    var fence: (info: String, lines: [String])?

    func closeFault() {
      guard var finished = fault else { return }
      if blocks.count == 2 {
        finished.original = blocks[0].text
        finished.replacement = blocks[1].text
        finished.isExpression = blocks[0].info.split(separator: " ").contains("expression")
        if tasks.isEmpty {
          problems.append("fault \"\(finished.name)\" comes before any ## Task heading")
        } else {
          finished.id = "t\(tasks[tasks.count - 1].number)f\(tasks[tasks.count - 1].faults.count + 1)"
          tasks[tasks.count - 1].faults.append(finished)
        }
      } else {
        problems.append(
          "fault \"\(finished.name)\" needs two fenced blocks (the solution's text, then the fault's), has \(blocks.count)"
        )
      }
      fault = nil
      blocks = []
    }

    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if var open = fence {
        if line.trimmingCharacters(in: .whitespaces) == "```" {
          if fault != nil { blocks.append((open.info, open.lines.joined(separator: "\n"))) }
          fence = nil
        } else {
          open.lines.append(line)
          fence = open
        }
        continue
      }
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if trimmed.hasPrefix("```") {
        fence = (String(trimmed.dropFirst(3)).trimmingCharacters(in: .whitespaces), [])
      } else if line.hasPrefix("## ") {
        closeFault()
        let heading = String(line.dropFirst(3))
        guard let task = Self.taskHeading(heading) else { continue }
        tasks.append(TestTask(number: task.number, title: task.title, testFiles: [], faults: []))
      } else if line.hasPrefix("### ") {
        closeFault()
        fault = Fault(
          id: "", name: String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces), file: "", catchIt: "",
          original: "", replacement: "", isExpression: false)
      } else if trimmed.hasPrefix("Tests:"), fault == nil, !tasks.isEmpty {
        tasks[tasks.count - 1].testFiles += StageDoc.codeSpans(in: String(trimmed))
      } else if trimmed.hasPrefix("File:"), fault != nil {
        fault?.file = StageDoc.codeSpans(in: String(trimmed)).first ?? ""
      } else if trimmed.hasPrefix("Catch it:"), fault != nil {
        fault?.catchIt = String(trimmed.dropFirst("Catch it:".count)).trimmingCharacters(in: .whitespaces)
      }
    }
    closeFault()
    for task in tasks where task.testFiles.isEmpty {
      problems.append("Task \(task.number) has no `Tests:` line naming its files in YourTests/")
    }
    for task in tasks {
      for fault in task.faults where fault.file.isEmpty || fault.catchIt.isEmpty {
        problems.append("fault \"\(fault.name)\" of Task \(task.number) needs a `File:` and a `Catch it:` line")
      }
    }
    self.tasks = tasks
    self.problems = problems
  }

  /// What is wrong with the file's form, one sentence each.
  var problems: [String]

  /// Every fault of every task, in order.
  var faults: [Fault] { tasks.flatMap(\.faults) }

  /// `Task 8: Write the test: the loading state` gives 8 and the title after the number.
  static func taskHeading(_ heading: String) -> (number: Int, title: String)? {
    guard heading.hasPrefix("Task ") else { return nil }
    let rest = heading.dropFirst("Task ".count)
    let digits = rest.prefix { $0.isNumber }
    guard let number = Int(digits) else { return nil }
    var title = rest.dropFirst(digits.count)
    if title.hasPrefix(":") { title = title.dropFirst() }
    return (number, title.trimmingCharacters(in: .whitespaces))
  }

}

/// Turns a solution file into one that holds each of its faults behind a runtime switch.
///
/// Every fault is compiled once, and the environment variable `COURSE_FAULT`
/// chooses at most one per run of the tests (schematization, as
/// swift-mutation-testing does), so checking a learner's tests against M faults
/// is one build and M + 1 runs, not M + 1 builds.
enum FaultSchema {
  /// The environment variable that turns one fault on, by its id.
  static let variable = "COURSE_FAULT"

  /// The file added to the faulted module: the switch every fault asks.
  static let switchFile = """
    import Foundation

    /// Which fault this run has turned on; `nil`: the reference solution as it is.
    /// `nonisolated`: the module is main-actor by default, and faults sit in data-layer code.
    nonisolated let courseActiveFault: String? = ProcessInfo.processInfo.environment["\(variable)"]

    /// Whether the fault with this id is on.
    nonisolated func courseFault(_ id: String) -> Bool { courseActiveFault == id }

    """

  /// Why a fault cannot be applied to its file.
  struct Problem: Error, Equatable, CustomStringConvertible {
    var description: String
  }

  /// `source` with each of `faults` (all of the same file) in place of its original text.
  ///
  /// - Throws: `Problem` when a fault's original text is missing from the file or occurs more than once.
  static func apply(_ faults: [FaultList.Fault], to source: String) throws -> String {
    var result = source
    // The longest text first, so a fault inside another fault's text (an expression
    // of a statement) still finds its text once, in the other's `else`.
    let ordered = faults.enumerated().sorted {
      ($0.element.original.count, $1.offset) > ($1.element.original.count, $0.offset)
    }.map(\.element)
    for fault in ordered {
      let original = fault.original.trimmingCharacters(in: .newlines)
      let count = result.components(separatedBy: original).count - 1
      guard count == 1 else {
        throw Problem(
          description: "fault \"\(fault.name)\": its solution text occurs \(count) times in \(fault.file), "
            + "not once; quote more of the line so it names one place")
      }
      let replacement = fault.replacement.trimmingCharacters(in: .newlines)
      let schema =
        fault.isExpression
        ? "(courseFault(\"\(fault.id)\") ? (\(replacement)) : (\(original)))"
        : "if courseFault(\"\(fault.id)\") {\n\(replacement)\n} else {\n\(original)\n}"
      result = result.replacingOccurrences(of: original, with: schema)
    }
    return result
  }
}
