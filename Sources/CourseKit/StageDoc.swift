import Foundation

/// A stage's doc (`Docs/NN-Name.md`), read the way `course verify` needs it:
/// its `##` sections and the inline code spans in them.
struct StageDoc {
  /// A section's lines, without its heading.
  private let sections: [String: [String]]

  /// Splits Markdown into its level-2 sections; a heading inside a fenced code block is not one.
  init(markdown: String) {
    var sections: [String: [String]] = [:]
    var current: String?
    var inFence = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if Self.isFence(line) { inFence.toggle() }
      if !inFence, line.hasPrefix("## ") {
        let title = line.dropFirst(3).trimmingCharacters(in: .whitespaces)
        sections[title] = sections[title] ?? []
        current = title
      } else if let current {
        sections[current, default: []].append(line)
      }
    }
    self.sections = sections
  }

  /// The lines of the section headed exactly `## title`, or `nil` when the doc has none.
  func section(_ title: String) -> [String]? { sections[title] }

  /// The inline code spans of a section, in order, outside its fenced code blocks.
  ///
  /// Spans follow CommonMark: a run of backticks opens a span that the next run
  /// of the same length closes, and a span may continue on the next line.
  func codeSpans(inSection title: String) -> [String] {
    var prose: [String] = []
    var inFence = false
    for line in section(title) ?? [] {
      if Self.isFence(line) {
        inFence.toggle()
        prose.append("")
      } else {
        prose.append(inFence ? "" : line)
      }
    }
    return Self.codeSpans(in: prose.joined(separator: "\n"))
  }

  /// The inline code spans of Markdown text.
  static func codeSpans(in text: String) -> [String] {
    let characters = Array(text)
    return codeSpanRanges(in: characters).map { span in
      var content = String(characters[span.content]).replacingOccurrences(of: "\n", with: " ")
      if content.hasPrefix(" "), content.hasSuffix(" "), content.contains(where: { $0 != " " }) {
        content = String(content.dropFirst().dropLast())
      }
      return content
    }
  }

  /// Where the inline code spans of `characters` are: each span whole, backticks
  /// included, and its content. A run of backticks opens a span that the next
  /// run of the same length closes; a run that is never closed is text.
  static func codeSpanRanges(in characters: [Character]) -> [(whole: Range<Int>, content: Range<Int>)] {
    var spans: [(whole: Range<Int>, content: Range<Int>)] = []
    var index = 0
    func run(at start: Int) -> Int {
      var end = start
      while end < characters.count, characters[end] == "`" { end += 1 }
      return end - start
    }
    while index < characters.count {
      guard characters[index] == "`" else {
        index += 1
        continue
      }
      let opening = run(at: index)
      var search = index + opening
      var closing: Int?
      while search < characters.count {
        if characters[search] == "`" {
          let length = run(at: search)
          if length == opening {
            closing = search
            break
          }
          search += length
        } else {
          search += 1
        }
      }
      guard let closing else {
        index += opening
        continue
      }
      spans.append((whole: index..<(closing + opening), content: (index + opening)..<closing))
      index = closing + opening
    }
    return spans
  }

  /// A heading's anchor as GitHub and most Markdown viewers make it: lower case,
  /// spaces as hyphens, and only letters, digits, `-` and `_` kept
  /// (`Task 3: Map rows` gives `task-3-map-rows`).
  static func anchor(of heading: String) -> String {
    var slug = ""
    for character in heading.lowercased() {
      if character.isLetter || character.isNumber || character == "-" || character == "_" {
        slug.append(character)
      } else if character == " " {
        slug.append("-")
      }
    }
    return slug
  }

  static func isFence(_ line: String) -> Bool {
    let trimmed = line.drop { $0 == " " }
    return trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~")
  }
}
