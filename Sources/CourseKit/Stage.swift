import Foundation

/// One numbered stage of the course, as its folders name it (`01-ViewCallsURLSession`).
public struct Stage: Sendable, Hashable, Comparable {
  /// The two-digit number, such as `01`.
  public let number: String
  /// The name after the number, such as `ViewCallsURLSession`.
  public let name: String

  /// Makes a stage from its parts.
  public init(number: String, name: String) {
    self.number = number
    self.name = name
  }

  /// Reads a folder name of the form `NN-Name`; `nil` for any other name.
  public init?(folderName: String) {
    let parts = folderName.split(separator: "-", maxSplits: 1)
    guard parts.count == 2, parts[0].count == 2, parts[0].allSatisfy(\.isNumber), !parts[1].isEmpty
    else { return nil }
    self.init(number: String(parts[0]), name: String(parts[1]))
  }

  /// The folder name shared by Lessons/, Solutions/, Tests/ and Docs/.
  public var folder: String { "\(number)-\(name)" }
  /// The lesson module, such as `Lesson01`.
  public var lessonModule: String { "Lesson\(number)" }
  /// The solution module, such as `Solution01`.
  public var solutionModule: String { "Solution\(number)" }
  /// The stage's doc, relative to the package root.
  public var doc: String { "Docs/\(folder).md" }
  /// What the reference and other designs chose, to read once the stage passes
  /// (the capstone's `Docs/08-Capstone-Designs.md`); a stage may have none.
  public var designsDoc: String { "Docs/\(folder)-Designs.md" }

  public static func < (lhs: Stage, rhs: Stage) -> Bool { lhs.number < rhs.number }
}
