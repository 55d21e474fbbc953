import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// `JSONDecoder.catalog()` is finished code that Task 4 decodes with. These
/// tests pin what it refuses, so an edit that breaks it names the task that relies on it.
@Suite(.timeLimit(.minutes(1)))
struct CatalogDecoderTests {
  /// An empty page whose ignored `junk` key nests `depth` arrays deep.
  static func emptyPage(junkDepth depth: Int) -> Data {
    let junk = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    return Data(#"{"products": [], "total": 0, "skip": 0, "limit": 0, "junk": \#(junk)}"#.utf8)
  }

  @Test func refusesABodyNestedDeeperThanTheLimit() async {
    let body = Self.emptyPage(junkDepth: JSONDecoder.catalogMaximumDepth)  // 1 level for the page itself
    let outcome = Result { try JSONDecoder.catalog().decode(ProductPageDTO.self, from: body) }
    #expect(
      outcome.failure is DecodingError,
      guide.task(
        4,
        "a body nested \(JSONDecoder.catalogMaximumDepth + 1) levels deep should be refused before parsing with a DecodingError, got \(outcome.described)"
      )
    )
  }

  @Test func acceptsNestingUpToTheLimit() async throws {
    let body = Self.emptyPage(junkDepth: JSONDecoder.catalogMaximumDepth - 1)
    _ = try await guide.attempt(4, "a body nested exactly \(JSONDecoder.catalogMaximumDepth) levels deep is allowed") {
      try JSONDecoder.catalog().decode(ProductPageDTO.self, from: body)
    }
  }

  @Test func refusesAHundredThousandLevelsQuickly() async {
    let body = Data(String(repeating: "[", count: 100_000).utf8)
    let outcome = Result { try JSONDecoder.catalog().decode(ProductPageDTO.self, from: body) }
    #expect(
      outcome.failure is DecodingError,
      guide.task(4, "100,000 open brackets should be refused, got \(outcome.described)"))
  }

  @Test func bracketsInsideStringsDoNotCount() async throws {
    let brackets = String(repeating: "[{", count: 200)
    let body = Data(#"{"message": "\"\#(brackets)\" and \\\"\#(brackets)"}"#.utf8)
    struct Message: Decodable { let message: String }
    let decoded = try await guide.attempt(4, "brackets inside a string are text, not nesting") {
      try JSONDecoder.catalog().decode(Message.self, from: body)
    }
    #expect(
      decoded.message.hasSuffix(brackets), guide.task(4, "the string should decode whole, got \(decoded.message)"))
  }
}
