import Foundation

/// Contract item 6: every name a stage doc presents as this stage's code exists in that stage.
///
/// The check reads the inline code spans of the doc's `## Concepts` and
/// `## Tasks` sections (fenced code blocks are skipped: they are sketches, with
/// local names and SwiftUI or SwiftData code no target can compile). A span
/// that looks like a code reference (`ProductRepository`, `load()`,
/// `save(_:)`, `SQLiteConnection.migrate(_:)`, `.networkFirst`, `@MainActor`)
/// must have every part of its name, argument labels included, among the names
/// of the stage's Swift files: Lessons/NN, Solutions/NN, Tests/NN, and the
/// course's Sources/ (not the `course` tool's own). A bare word (`excluded`,
/// `Accept`, `reviews`) may instead be a word of the code's string literals
/// (SQL, HTTP headers, messages) or a key of the course's JSON data. Apple
/// names the course code never mentions are listed in `ForeignNames`. Spans that are not code
/// references are left alone: anything with a space (shell commands, SQL,
/// expressions), JSON, numbers, all-capital words (SQL and HTTP), snake_case
/// (SQL columns), Swift keywords. A span that names a file (`ProductRow.swift`,
/// `Sources/FakeCatalog/`) must exist: a bare file name in the stage's
/// folders, a path from the package root.
enum DocNamesCheck {
  /// The sections whose spans present the stage's code.
  static let sections = ["Concepts", "Tasks"]

  /// Checks one stage's doc; one line when every name exists, one per missing name otherwise.
  static func checks(for stage: Stage, in workspace: Workspace) -> [StageVerdict.Check] {
    guard let markdown = try? String(contentsOf: workspace.url(stage.doc), encoding: .utf8) else {
      return []  // The required-files check reports a missing doc.
    }
    let doc = StageDoc(markdown: markdown)
    let code = CodeVocabulary(of: stage, in: workspace)
    let names = code.identifiers.union(ForeignNames.all)
    let words = names.union(code.words)
    var problems: [StageVerdict.Check] = []
    var checked = 0
    for section in sections {
      for span in doc.codeSpans(inSection: section) {
        if let missing = missingFile(span, of: stage, in: workspace) {
          checked += 1
          if !missing { continue }
          problems.append(
            StageVerdict.Check(
              ok: false,
              text: "\(stage.doc) names the file `\(span)` under ## \(section), but the stage has no such file; "
                + "correct the path or take it out of the doc"))
        } else if let parts = self.names(inSpan: span) {
          checked += 1
          let known = parts == [span] ? words : names
          for name in parts where !known.contains(name) {
            problems.append(
              StageVerdict.Check(
                ok: false,
                text: "\(stage.doc) names `\(span)` under ## \(section), but `\(name)` is not a name in "
                  + "Lessons/\(stage.folder), Solutions/\(stage.folder), Tests/\(stage.folder) or Sources/; "
                  + "correct the doc, or, for a name from Apple or from a library the doc compares with, add it to "
                  + "ForeignNames in Sources/CourseKit/ForeignNames.swift"))
          }
        }
      }
    }
    if problems.isEmpty {
      problems.append(
        StageVerdict.Check(
          ok: true,
          text: "\(stage.doc): the \(checked) code names in ## Concepts and ## Tasks exist in the stage's code"))
    }
    return problems + referenceNameChecks(doc: markdown, of: stage, in: workspace)
  }

  /// Contract item 9: from stage 02 on, a stage doc names no type that only the reference declares.
  ///
  /// Such a name is the reference's design: the learner cannot see it before
  /// passing, and a doc that uses it tells them what to build. What the reference
  /// chose belongs in the designs doc. The names are those
  /// `CodeVocabulary.referenceOnlyTypes` gives, matched with their case, in inline
  /// code and code blocks; a name of two words or more (`MemoryTier`) in the prose
  /// as well, where a one-word name (`Flight`, `Meta`) would also match plain English.
  /// Stage 01, the anti-pattern fixed in place, may show its solution's names.
  static func referenceNameChecks(doc markdown: String, of stage: Stage, in workspace: Workspace)
    -> [StageVerdict.Check]
  {
    guard let number = Int(stage.number), number >= DecisionsCheck.firstStage else { return [] }
    let hidden = CodeVocabulary.referenceOnlyTypes(of: stage, in: workspace)
    var found: [String: (line: Int, count: Int)] = [:]
    var order: [String] = []
    var inFence = false
    for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let fence = StageDoc.isFence(String(line))
      if fence { inFence.toggle() }
      let code = inFence || fence ? [line] : StageDoc.codeSpans(in: String(line)).map { Substring($0) }
      let inCode = Set(code.flatMap(identifiers(in:)))
      for word in identifiers(in: line) where hidden.contains(word) && (inCode.contains(word) || isCompound(word)) {
        if let seen = found[word] {
          found[word] = (seen.line, seen.count + 1)
        } else {
          found[word] = (number + 1, 1)
          order.append(word)
        }
      }
    }
    guard !order.isEmpty else {
      return [
        StageVerdict.Check(
          ok: true,
          text: "\(stage.doc) names none of the \(hidden.count) types only Solutions/\(stage.folder) declares")
      ]
    }
    return order.map { name in
      let (line, count) = found[name] ?? (0, 0)
      let times = count == 1 ? "" : " (\(count) times)"
      return StageVerdict.Check(
        ok: false,
        text: "\(stage.doc):\(line) names `\(name)`\(times), a type that only Solutions/\(stage.folder) declares: "
          + "the learner cannot see it before passing, so it gives the reference's design away. Say what must hold "
          + "without the name, or move the passage to \(stage.designsDoc)")
    }
  }

  /// Whether a name is two words or more run together, `MemoryTier` or `ProductDTO`,
  /// and so no word of English prose.
  static func isCompound(_ name: String) -> Bool {
    name.dropFirst().contains { $0.isUppercase } || name.contains("_")
  }

  /// The identifier-shaped words of a line of text: runs of ASCII letters, digits
  /// and `_` that do not start with a digit.
  static func identifiers(in line: Substring) -> [String] {
    var words: [String] = []
    var current = ""
    for character in line + " " {
      if isNameCharacter(character) {
        current.append(character)
      } else {
        if let first = current.first, !first.isNumber { words.append(current) }
        current = ""
      }
    }
    return words
  }

  /// The parts of a code reference that must be names in the code, or `nil` when the span is not one.
  ///
  /// `SQLiteConnection.migrate(_:)` gives `SQLiteConnection` and `migrate`;
  /// `init(baseURL:session:)` gives `baseURL` and `session`; `.loaded([Product])`
  /// gives `loaded` (an argument that is not a label list is not checked).
  static func names(inSpan span: String) -> [String]? {
    guard !span.contains(where: \.isWhitespace) else { return nil }
    var rest = Substring(span)
    if let first = rest.first, "@.#".contains(first) { rest = rest.dropFirst() }
    var path: [String] = []
    while true {
      let name = rest.prefix(while: isNameCharacter)
      guard let first = name.first, first.isLetter || first == "_" else { return nil }
      path.append(String(name))
      rest = rest.dropFirst(name.count)
      guard rest.first == "." else { break }
      rest = rest.dropFirst()
    }
    var labels: [String] = []
    if rest.hasSuffix("?") || rest.hasSuffix("!") { rest = rest.dropLast() }
    if rest.first == "(", rest.last == ")" {
      let arguments = rest.dropFirst().dropLast()
      let parts = arguments.split(separator: ":", omittingEmptySubsequences: false)
      let isLabelList =
        arguments.hasSuffix(":")
        && parts.dropLast().allSatisfy { !$0.isEmpty && $0.allSatisfy(isNameCharacter) }
      if isLabelList { labels = parts.dropLast().map(String.init).filter { $0 != "_" } }
      rest = ""
    }
    guard rest.isEmpty else { return nil }
    if path.count == 1, labels.isEmpty, isSQLOrHTTPWord(path[0]) { return nil }
    let names = (path + labels).filter { !swiftKeywords.contains($0) }
    return names.isEmpty ? nil : names
  }

  private static func isNameCharacter(_ character: Character) -> Bool {
    character.isASCII && (character.isLetter || character.isNumber || character == "_")
  }

  /// `INSERT`, `POST`, `updated_at`: words of SQL and HTTP, not Swift names.
  private static func isSQLOrHTTPWord(_ word: String) -> Bool {
    let allCapitals = word.allSatisfy { $0.isUppercase || $0.isNumber || $0 == "_" }
    let snakeCase = word.contains("_") && word.first?.isLowercase == true
    return allCapitals || snakeCase
  }

  /// Whether a file span names a missing file: `true` missing, `false` present, `nil` for a span that is no file.
  private static func missingFile(_ span: String, of stage: Stage, in workspace: Workspace) -> Bool? {
    guard !span.contains(where: \.isWhitespace), !span.contains("://") else { return nil }
    let roots = ["Lessons/", "Solutions/", "Tests/", "Sources/", "Docs/"]
    if roots.contains(where: span.hasPrefix) { return !workspace.exists(span) }
    guard span.hasSuffix(".swift"), !span.hasPrefix(".") else { return nil }
    let folders = ["Lessons/\(stage.folder)", "Solutions/\(stage.folder)", "Tests/\(stage.folder)"]
    return !folders.contains { folder in
      workspace.swiftFiles(under: folder).contains { $0 == span || $0.hasSuffix("/\(span)") }
    }
  }

  /// Swift's keywords: the language, not the course's API.
  static let swiftKeywords: Set<String> = [
    "actor", "any", "as", "associatedtype", "async", "await", "break", "case", "catch", "class", "continue",
    "default", "defer", "deinit", "do", "else", "enum", "extension", "fallthrough", "false", "fileprivate",
    "final", "for", "func", "guard", "if", "import", "in", "init", "inout", "internal", "is", "let", "nil",
    "nonisolated", "open", "private", "protocol", "public", "repeat", "rethrows", "return", "self", "Self",
    "some", "static", "struct", "subscript", "super", "switch", "throw", "throws", "true", "try", "typealias",
    "var", "where", "while",
  ]
}
