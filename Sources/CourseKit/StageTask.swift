import Foundation

/// One task of a stage, as its doc's `### Task N: Title` heading under `## Tasks` gives it.
public struct StageTask: Sendable, Equatable {
  /// The task's number.
  public var number: Int
  /// The title after the number, such as `Map rows to products and back`.
  public var title: String

  /// The tests the doc's section of this task names, such as
  /// `showsTheFirstPageOfProducts`: how a hung test that recorded nothing finds its task.
  public var tests: Set<String>
  /// Every code span of the task's section, such as `RequestCoalescer.value(for:operation:)`:
  /// how a function the runtime names after a hang finds the task that writes it.
  public var mentions: [String]
  /// The learner's files that the doc's `## Your files` gives to this task alone,
  /// such as `ProductBroadcast.swift`: how a crash in one finds its task.
  public var files: [String]

  /// Makes a task from its parts.
  public init(number: Int, title: String, tests: Set<String> = [], mentions: [String] = [], files: [String] = []) {
    self.number = number
    self.title = title
    self.tests = tests
    self.mentions = mentions
    self.files = files
  }

  /// Whether the section names `function`, as the runtime prints it (`value(for:operation:)`),
  /// alone or after its type (`RequestCoalescer.value(for:operation:)`).
  public func mentions(function: String) -> Bool {
    mentions.contains { $0 == function || $0.hasSuffix(".\(function)") }
  }

  /// Whether the doc names `test`, a name as the test runner gives it (`sendsIt()`, `rows(policy:)`).
  public func names(_ test: String) -> Bool {
    tests.contains(String(test.prefix { $0 != "(" }))
  }

  /// The heading's text, `Task 3: Map rows to products and back`.
  public var heading: String { "Task \(number): \(title)" }

  /// The heading's anchor as GitHub and most Markdown viewers make it:
  /// `task-3-map-rows-to-products-and-back`.
  public var anchor: String { StageDoc.anchor(of: heading) }

  /// Where to read about the task: `Docs/04-LocalPersistence.md#task-3-map-rows-to-products-and-back`.
  public func section(in stage: Stage) -> String { "\(stage.doc)#\(anchor)" }

  /// Reads `Task 3: Title` (the text of a heading); `nil` for any other text.
  init?(heading text: String) {
    guard text.hasPrefix("Task ") else { return nil }
    let rest = text.dropFirst("Task ".count)
    guard let colon = rest.firstIndex(of: ":"), let number = Int(rest[..<colon]) else { return nil }
    self.init(number: number, title: rest[rest.index(after: colon)...].trimmingCharacters(in: .whitespaces))
  }
}

extension StageDoc {
  /// The tasks: `### Task N: Title` headings in `## Tasks`, in order, outside
  /// fenced code blocks, each with the test names its section mentions.
  var tasks: [StageTask] {
    var tasks: [StageTask] = []
    var inFence = false
    var prose: [String] = []
    func endTask() {
      if !tasks.isEmpty {
        let text = prose.joined(separator: "\n")
        tasks[tasks.count - 1].tests = Self.testNames(in: text)
        tasks[tasks.count - 1].mentions = Self.codeSpans(in: text)
      }
      prose = []
    }
    for line in section("Tasks") ?? [] {
      if Self.isFence(line) {
        inFence.toggle()
        continue
      }
      guard !inFence else { continue }
      guard line.hasPrefix("### ") else {
        prose.append(line)
        continue
      }
      endTask()
      if let task = StageTask(heading: line.dropFirst(4).trimmingCharacters(in: .whitespaces)) { tasks.append(task) }
    }
    endTask()
    for (file, number) in filesOfOneTask() {
      if let index = tasks.firstIndex(where: { $0.number == number }) { tasks[index].files.append(file) }
    }
    return tasks
  }

  /// The files `## Your files` lists whose bullet names exactly one task
  /// (`- \`ProductBroadcast.swift\`: Task 1. …`); a bullet for several tasks
  /// ("Tasks 2 and 4", "Tasks 5 to 7") gives no task.
  func filesOfOneTask() -> [(file: String, task: Int)] {
    var bullets: [String] = []
    for line in section("Your files") ?? [] {
      if line.hasPrefix("- ") {
        bullets.append(line)
      } else if line.hasPrefix("  "), !bullets.isEmpty {
        bullets[bullets.count - 1] += " " + line.trimmingCharacters(in: .whitespaces)
      }
    }
    return bullets.compactMap { bullet in
      guard let file = Self.codeSpans(in: bullet).first, file.hasSuffix(".swift"), !bullet.contains("Tasks ")
      else { return nil }
      let words = bullet.split(whereSeparator: { $0 == " " })
      let numbers = Set(
        zip(words, words.dropFirst()).compactMap { word, next in
          word == "Task" ? Int(next.prefix { $0.isNumber }) : nil
        })
      guard numbers.count == 1, let task = numbers.first else { return nil }
      // A backtrace names a file by its last path component: `YourTests/A.swift` is `A.swift` there.
      return (file.split(separator: "/").last.map(String.init) ?? file, task)
    }
  }

  /// The code spans of `text` that could name a test: a lower-case identifier,
  /// or the last part of `SuiteName.testName`.
  static func testNames(in text: String) -> Set<String> {
    Set(
      codeSpans(in: text).compactMap { span in
        let name = span.split(separator: ".").last.map(String.init) ?? span
        guard let first = name.first, first.isLowercase,
          name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { return nil }
        return name
      })
  }
}

extension Workspace {
  /// The stage's tasks, read from its doc; empty when the doc is missing or has none.
  func tasks(of stage: Stage) -> [StageTask] {
    guard let markdown = try? String(contentsOf: url(stage.doc), encoding: .utf8) else { return [] }
    return StageDoc(markdown: markdown).tasks
  }

  /// The stage whose number is `number` (`4` and `04` alike), or the usage error naming the stages there are.
  func stage(numbered number: String) throws -> Stage {
    let all = stages()
    guard let wanted = Int(number), let stage = all.first(where: { Int($0.number) == wanted }) else {
      throw CourseError.usage(
        "No stage \(number). The stages are \(all.map(\.number).joined(separator: ", ")).")
    }
    return stage
  }
}
