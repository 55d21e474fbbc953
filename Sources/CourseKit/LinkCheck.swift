import Foundation

/// `course verify`'s check of the course's Markdown: every relative link in
/// README.md, Docs/ and Faults/ names a file or folder of the package, and an
/// anchor after `#` names a heading of the Markdown file it points to.
///
/// Links with a scheme (`https:`, `mailto:`) are not followed: the checks never
/// reach the network. Links inside fenced code blocks and inline code are text.
enum LinkCheck {
  /// The Markdown the check reads: the top-level README and every `.md` file below these folders.
  static let folders = ["Docs", "Faults"]

  /// One link of a Markdown file.
  struct Link: Equatable {
    /// The line it is on, from 1.
    var line: Int
    /// The target as written, such as `Docs/Setup.md#linux`.
    var target: String
  }

  /// The files the check reads, relative to the package root, in order.
  static func files(in workspace: Workspace) -> [String] {
    let top = workspace.exists("README.md") ? ["README.md"] : []
    return top
      + folders.flatMap { folder in
        workspace.files(under: folder).filter { $0.hasSuffix(".md") }.map { "\(folder)/\($0)" }
      }
  }

  /// One failing line per link that does not resolve, or one passing line that counts them.
  static func checks(in workspace: Workspace) -> [StageVerdict.Check] {
    let files = files(in: workspace)
    var anchors: [String: Set<String>] = [:]
    func anchors(of path: String) -> Set<String>? {
      if let known = anchors[path] { return known }
      guard let text = try? String(contentsOf: workspace.url(path), encoding: .utf8) else { return nil }
      let found = Self.anchors(in: text)
      anchors[path] = found
      return found
    }
    var problems: [StageVerdict.Check] = []
    var count = 0
    for file in files {
      guard let text = try? String(contentsOf: workspace.url(file), encoding: .utf8) else { continue }
      for link in links(in: text) where isRelative(link.target) {
        count += 1
        if let problem = problem(with: link.target, in: file, workspace: workspace, anchors: anchors(of:)) {
          problems.append(
            StageVerdict.Check(ok: false, text: "\(file):\(link.line) links to `\(link.target)`, but \(problem)"))
        }
      }
    }
    guard problems.isEmpty else { return problems }
    let places =
      (workspace.exists("README.md") ? ["README.md"] : []) + folders.filter(workspace.exists).map { "\($0)/" }
    return [
      StageVerdict.Check(
        ok: true,
        text: "\(places.joined(separator: ", ")): the \(count) relative link(s) in \(files.count) file(s) "
          + "resolve, anchors included")
    ]
  }

  /// Why `target`, a relative link in `file`, does not resolve; `nil` when it does.
  static func problem(
    with target: String, in file: String, workspace: Workspace, anchors: (String) -> Set<String>?
  ) -> String? {
    let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
    let pathPart = parts[0].removingPercentEncoding ?? parts[0]
    let fragment = parts.count > 1 ? parts[1] : ""
    let folder = (file as NSString).deletingLastPathComponent
    let root = workspace.root.standardizedFileURL.path
    let path: String
    if pathPart.isEmpty {
      path = file
    } else {
      let resolved = URL(fileURLWithPath: root).appendingPathComponent(folder).appendingPathComponent(pathPart)
        .standardizedFileURL.path
      guard resolved.hasPrefix(root + "/") else { return "it points outside the package" }
      path = String(resolved.dropFirst(root.count + 1))
      guard workspace.exists(path) else { return "\(path) does not exist" }
    }
    guard !fragment.isEmpty, path.hasSuffix(".md") else { return nil }
    guard let known = anchors(path) else { return "\(path) cannot be read" }
    return known.contains(fragment) ? nil : "\(path) has no heading whose anchor is `#\(fragment)`"
  }

  /// Whether a link stays in the package: no scheme (`https:`, `mailto:`) and not protocol-relative.
  static func isRelative(_ target: String) -> Bool {
    guard !target.isEmpty, !target.hasPrefix("//") else { return false }
    if let colon = target.firstIndex(of: ":"), !target[..<colon].contains(where: { "/#?.".contains($0) }),
      target[..<colon].allSatisfy({ $0.isLetter || $0.isNumber || "+-".contains($0) })
    {
      return false
    }
    return true
  }

  /// The inline links and images (`[text](target)`) and link definitions (`[name]: target`)
  /// of Markdown text, outside fenced code blocks and inline code.
  static func links(in markdown: String) -> [Link] {
    var links: [Link] = []
    var inFence = false
    for (offset, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let line = String(line)
      if StageDoc.isFence(line) {
        inFence.toggle()
        continue
      }
      guard !inFence else { continue }
      let prose = withoutCode(line)
      let trimmed = prose.drop { $0 == " " }
      if trimmed.hasPrefix("["), let close = trimmed.firstIndex(of: "]"),
        trimmed[trimmed.index(after: close)...].hasPrefix(":")
      {
        let target = trimmed[trimmed.index(close, offsetBy: 2)...].drop { $0 == " " }.prefix { $0 != " " }
        if !target.isEmpty { links.append(Link(line: offset + 1, target: unbracketed(String(target)))) }
        continue
      }
      var rest = prose[...]
      while let open = rest.range(of: "](") {
        var target = ""
        var depth = 0
        var index = open.upperBound
        while index < rest.endIndex {
          let character = rest[index]
          if character == "(" { depth += 1 }
          if character == ")" {
            if depth == 0 { break }
            depth -= 1
          }
          target.append(character)
          index = rest.index(after: index)
        }
        // A title after the target: `[text](target "Title")`.
        let bare = target.trimmingCharacters(in: .whitespaces)
        let address = bare.hasPrefix("<") ? bare : String(bare.prefix { $0 != " " })
        if !address.isEmpty { links.append(Link(line: offset + 1, target: unbracketed(address))) }
        rest = rest[index...]
      }
    }
    return links
  }

  /// The anchors a Markdown file offers: one per heading, as GitHub makes them (a
  /// repeated heading gets `-1`, `-2`, …), and any `<a id="…">` or `<a name="…">`.
  static func anchors(in markdown: String) -> Set<String> {
    var anchors: Set<String> = []
    var seen: [String: Int] = [:]
    var inFence = false
    for line in markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
      if StageDoc.isFence(line) {
        inFence.toggle()
        continue
      }
      guard !inFence else { continue }
      for marker in ["<a id=\"", "<a name=\""] {
        var rest = line[...]
        while let start = rest.range(of: marker) {
          let value = rest[start.upperBound...].prefix { $0 != "\"" }
          anchors.insert(String(value))
          rest = rest[start.upperBound...]
        }
      }
      let hashes = line.prefix { $0 == "#" }.count
      guard (1...6).contains(hashes), line.dropFirst(hashes).hasPrefix(" ") else { continue }
      var title = line.dropFirst(hashes).trimmingCharacters(in: .whitespaces)
      while title.hasSuffix("#") { title = String(title.dropLast()).trimmingCharacters(in: .whitespaces) }
      let slug = StageDoc.anchor(of: title)
      let repeats = seen[slug, default: 0]
      seen[slug] = repeats + 1
      anchors.insert(repeats == 0 ? slug : "\(slug)-\(repeats)")
    }
    return anchors
  }

  /// The line with its inline code spans blanked, so a link shown as code is not followed.
  private static func withoutCode(_ line: String) -> String {
    var characters = Array(line)
    for span in StageDoc.codeSpanRanges(in: characters) {
      for blank in span.whole { characters[blank] = " " }
    }
    return String(characters)
  }

  private static func unbracketed(_ target: String) -> String {
    target.hasPrefix("<") && target.hasSuffix(">") ? String(target.dropFirst().dropLast()) : target
  }
}
