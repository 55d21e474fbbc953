import Foundation

/// The names a stage's code uses, for `DocNamesCheck`.
///
/// The stage's Swift files (Lessons/NN, Solutions/NN, Tests/NN) and the
/// course's infrastructure (Sources/, without the `course` tool's own CourseKit
/// and course), plus the keys of the JSON files among them, such as the
/// product records.
struct CodeVocabulary {
  /// Identifiers outside comments and strings.
  private(set) var identifiers: Set<String> = []
  /// Words of string literals and keys of JSON objects.
  private(set) var words: Set<String> = []

  /// Reads the stage's files and the infrastructure's.
  init(of stage: Stage, in workspace: Workspace) {
    let tool = ["Sources/CourseKit/", "Sources/course/"]
    let infrastructure = workspace.files(under: "Sources").map { "Sources/\($0)" }
      .filter { path in !tool.contains(where: path.hasPrefix) }
    let stageFiles = ["Lessons", "Solutions", "Tests"].flatMap { root in
      workspace.files(under: "\(root)/\(stage.folder)").map { "\(root)/\(stage.folder)/\($0)" }
    }
    for path in infrastructure + stageFiles where path.hasSuffix(".swift") || path.hasSuffix(".json") {
      guard let text = try? String(contentsOf: workspace.url(path), encoding: .utf8) else { continue }
      if path.hasSuffix(".swift") {
        let names = SwiftNames(source: text)
        identifiers.formUnion(names.identifiers)
        words.formUnion(names.stringWords)
      } else {
        words.formUnion(Self.keys(ofJSON: text))
      }
    }
  }

  /// The types only the reference knows: declared in Solutions/NN-Name (its
  /// YourTests answers included), and named nowhere a learner reads code before
  /// passing: not in Lessons/NN-Name, Tests/NN-Name, the course's Sources/
  /// (but for files that import a solution, such as the demo app's), or
  /// `ForeignNames` (a library's `Cache` is not the reference's).
  static func referenceOnlyTypes(of stage: Stage, in workspace: Workspace) -> Set<String> {
    func sources(under folder: String) -> [String] {
      workspace.swiftFiles(under: folder).compactMap { file in
        try? String(contentsOf: workspace.url("\(folder)/\(file)"), encoding: .utf8)
      }
    }
    let declared = sources(under: "Solutions/\(stage.folder)").map(SwiftNames.init)
      .reduce(into: Set<String>()) { $0.formUnion($1.declaredTypes) }
    guard !declared.isEmpty else { return [] }
    let tool = ["Sources/CourseKit/", "Sources/course/"]
    let infrastructure = workspace.swiftFiles(under: "Sources").map { "Sources/\($0)" }
      .filter { path in !tool.contains(where: path.hasPrefix) }
      .compactMap { try? String(contentsOf: workspace.url($0), encoding: .utf8) }
      .filter { !$0.contains("import Solution") && !$0.contains("import Alternative") }
    let visible = (sources(under: "Lessons/\(stage.folder)") + sources(under: "Tests/\(stage.folder)") + infrastructure)
      .map(SwiftNames.init).reduce(into: ForeignNames.all) { $0.formUnion($1.identifiers) }
    return declared.subtracting(visible)
  }

  /// The keys of every object in a JSON text: each `"name":`.
  static func keys(ofJSON text: String) -> Set<String> {
    var keys: Set<String> = []
    var rest = Substring(text)
    while let quote = rest.firstIndex(of: "\"") {
      rest = rest[rest.index(after: quote)...]
      guard let close = rest.firstIndex(of: "\"") else { break }
      let key = rest[..<close]
      rest = rest[rest.index(after: close)...]
      if rest.drop(while: \.isWhitespace).first == ":" { keys.insert(String(key)) }
    }
    return keys
  }
}
