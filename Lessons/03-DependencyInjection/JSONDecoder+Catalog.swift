import Foundation

nonisolated extension JSONDecoder {
  /// How many levels of arrays and objects a Catalog API body may nest.
  ///
  /// The real records nest three levels deep. Far deeper bodies come from a
  /// broken proxy or an attacker, and a recursive parser can run out of stack on them.
  static let catalogMaximumDepth = 64

  /// The decoder for the Catalog API's bodies: a `JSONDecoder` that refuses a body
  /// nested deeper than `catalogMaximumDepth` before its parser sees a byte.
  ///
  /// The refusal is a `DecodingError.dataCorrupted`, like any other body that is
  /// not the JSON the endpoint promises.
  static func catalog() -> JSONDecoder { DepthLimitedJSONDecoder() }

  /// Whether `data` nests arrays and objects more than `limit` levels deep.
  ///
  /// One pass over the bytes, stopping as soon as the answer is yes. Brackets
  /// inside strings don't count, escaped quotes included.
  static func nests(_ data: Data, deeperThan limit: Int) -> Bool {
    data.withUnsafeBytes { bytes in
      var depth = 0
      var inString = false
      var escaped = false
      for byte in bytes {
        if inString {
          if escaped {
            escaped = false
          } else if byte == UInt8(ascii: "\\") {
            escaped = true
          } else if byte == UInt8(ascii: "\"") {
            inString = false
          }
          continue
        }
        switch byte {
        case UInt8(ascii: "\""):
          inString = true
        case UInt8(ascii: "["), UInt8(ascii: "{"):
          depth += 1
          if depth > limit { return true }
        case UInt8(ascii: "]"), UInt8(ascii: "}"):
          depth -= 1
        default:
          break
        }
      }
      return false
    }
  }
}

/// A `JSONDecoder` that measures nesting before it parses.
///
/// `@unchecked Sendable` as `JSONDecoder` is: it adds no stored state.
nonisolated private final class DepthLimitedJSONDecoder: JSONDecoder, @unchecked Sendable {
  override func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
    let limit = JSONDecoder.catalogMaximumDepth
    guard !JSONDecoder.nests(data, deeperThan: limit) else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: [], debugDescription: "The body nests arrays or objects more than \(limit) deep")
      )
    }
    return try super.decode(type, from: data)
  }
}
