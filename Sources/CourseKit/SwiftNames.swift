/// The names a Swift source declares or uses, and the words of its string literals.
///
/// A small lexer, enough for `course verify` to tell whether a name a doc
/// presents as code is in the code: it skips `//` and nested `/* */` comments,
/// keeps the text of string literals (plain, multi-line and raw) apart, and
/// reads the code inside `\(…)` interpolations. Backticked names count without
/// their backticks; `@MainActor` and `#expect` count as `MainActor` and `expect`.
struct SwiftNames {
  /// Every identifier outside comments and string literals.
  private(set) var identifiers: Set<String> = []
  /// Every word inside string literals: SQL, header names, message text.
  private(set) var stringWords: Set<String> = []
  /// The names of the types the source declares, nested ones included: each
  /// name after `struct`, `class`, `enum`, `actor`, `protocol` or `typealias`.
  private(set) var declaredTypes: Set<String> = []
  private let bytes: [UInt8]
  private var index = 0
  /// The identifier read last, to see a declaration's keyword before its name.
  private var previous = ""

  /// The keywords that declare a type; `class func` and `class var` declare none.
  private static let typeKeywords: Set<String> = ["struct", "class", "enum", "actor", "protocol", "typealias"]

  /// Reads one source file.
  init(source: String) {
    bytes = Array(source.utf8)
    scanCode(untilUnbalancedParenthesis: false)
  }

  private func byte(_ offset: Int = 0) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  private static func isIdentifierStart(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x5F
  }

  private static func isIdentifierPart(_ byte: UInt8) -> Bool {
    isIdentifierStart(byte) || (byte >= 0x30 && byte <= 0x39)
  }

  /// Reads code up to the end, or up to the `)` that closes an interpolation.
  private mutating func scanCode(untilUnbalancedParenthesis: Bool) {
    var depth = 0
    while let current = byte() {
      // A declaration's name follows its keyword after white space only.
      if !Self.isIdentifierStart(current), ![0x20, 0x09, 0x0A, 0x0D].contains(current) { previous = "" }
      switch current {
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
        while let next = byte(), next != UInt8(ascii: "\n") { index += 1 }
      case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
        skipBlockComment()
      case UInt8(ascii: "#"), UInt8(ascii: "\""):
        var hashes = 0
        while byte(hashes) == UInt8(ascii: "#") { hashes += 1 }
        if byte(hashes) == UInt8(ascii: "\"") {
          index += hashes
          scanString(hashes: hashes)
        } else {
          index += max(hashes, 1)
        }
      case UInt8(ascii: "("):
        depth += 1
        index += 1
      case UInt8(ascii: ")"):
        index += 1
        if untilUnbalancedParenthesis, depth == 0 { return }
        depth -= 1
      case let start where Self.isIdentifierStart(start):
        let name = word()
        identifiers.insert(name)
        if Self.typeKeywords.contains(previous), !DocNamesCheck.swiftKeywords.contains(name) {
          declaredTypes.insert(name)
        }
        previous = name
      default:
        index += 1
      }
    }
  }

  /// Reads the identifier that starts here.
  private mutating func word() -> String {
    let begin = index
    while let next = byte(), Self.isIdentifierPart(next) { index += 1 }
    return String(decoding: bytes[begin..<index], as: UTF8.self)
  }

  private mutating func skipBlockComment() {
    var depth = 0
    while byte() != nil {
      if byte() == UInt8(ascii: "/"), byte(1) == UInt8(ascii: "*") {
        depth += 1
        index += 2
      } else if byte() == UInt8(ascii: "*"), byte(1) == UInt8(ascii: "/") {
        depth -= 1
        index += 2
        if depth == 0 { return }
      } else {
        index += 1
      }
    }
  }

  /// Reads a string literal that starts at the current `"`: its words, and its interpolations as code.
  private mutating func scanString(hashes: Int) {
    let quote = UInt8(ascii: "\"")
    let quotes = byte(1) == quote && byte(2) == quote ? 3 : 1
    index += quotes
    func closesHere(_ me: SwiftNames) -> Bool {
      (0..<quotes).allSatisfy { me.byte($0) == quote }
        && (0..<hashes).allSatisfy { me.byte(quotes + $0) == UInt8(ascii: "#") }
    }
    while byte() != nil {
      if closesHere(self) {
        index += quotes + hashes
        return
      }
      if byte() == UInt8(ascii: "\\"), (0..<hashes).allSatisfy({ byte(1 + $0) == UInt8(ascii: "#") }) {
        index += 1 + hashes
        if byte() == UInt8(ascii: "(") {
          index += 1
          scanCode(untilUnbalancedParenthesis: true)
        } else {
          index += 1
        }
      } else if let current = byte(), Self.isIdentifierStart(current) {
        stringWords.insert(word())
      } else {
        index += 1
      }
    }
  }
}
