import Foundation

/// A JSON document as a value: what the fake API stores, filters and edits.
///
/// `JSONSerialization` hands back `Any`, which is neither `Sendable` nor
/// `Equatable`; this enum is both, so records can cross actors and be compared in tests.
public enum JSONValue: Sendable, Hashable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([JSONValue])
  case object([String: JSONValue])

  /// Parses a JSON document.
  ///
  /// Parsing goes through `JSONSerialization`, which Foundation ships compiled
  /// with optimizations: in a debug build it reads the 194 fixture records in a
  /// few milliseconds, where a `Decodable` tree took a fifth of a second, paid
  /// by every test process before its first test.
  /// - Throws: The parsing error when `data` is not JSON.
  public init(data: Data) throws {
    self.init(parsed: try JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed))
  }

  /// Converts what `JSONSerialization` returns, which holds nothing else.
  private init(parsed: Any) {
    // Containers are tried first: on Linux, casting a dictionary to `String` or
    // `NSNumber` first bridges it to an NSDictionary, which made this tree walk
    // the largest cost of starting a test process.
    switch parsed {
    case let object as [String: Any]: self = .object(object.mapValues(JSONValue.init(parsed:)))
    case let array as [Any]: self = .array(array.map(JSONValue.init(parsed:)))
    case let text as String: self = .string(text)
    case let number as NSNumber:
      // Both Foundations return booleans as the one NSNumber subclass `NSNumber(value: true)` has.
      self = type(of: number) == Self.booleanClass ? .bool(number.boolValue) : .number(number.doubleValue)
    default: self = .null
    }
  }

  private static let booleanClass = type(of: NSNumber(value: true))

  /// The member named `key` of an object, or `nil`.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The value as a string, when it is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The value as a number, when it is one.
  public var numberValue: Double? {
    if case .number(let value) = self { return value }
    return nil
  }

  /// The value encoded as JSON, with sorted keys so the bytes are stable.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Encoding a JSONValue cannot fail: every case maps to a JSON value.
    return (try? encoder.encode(self)) ?? Data("null".utf8)
  }
}

extension JSONValue: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let value): try container.encode(value)
    case .number(let value):
      // Whole numbers go out without a fraction, as the real API sends ids and stock.
      if value.rounded() == value, abs(value) < 1e15 {
        try container.encode(Int64(value))
      } else {
        try container.encode(value)
      }
    case .string(let value): try container.encode(value)
    case .array(let value): try container.encode(value)
    case .object(let value): try container.encode(value)
    }
  }
}
