import CourseFixtures
import Foundation

/// An HTTP answer before it is turned into a `HTTPURLResponse`.
struct Reply: Sendable {
  var status: Int
  var headers: [String: String] = ["Content-Type": "application/json; charset=utf-8"]
  var body: Data
  /// `false` delivers a plain `URLResponse` instead of an `HTTPURLResponse`.
  var isHTTP = true

  static func json(_ value: JSONValue, status: Int = 200) -> Reply {
    Reply(status: status, body: value.encoded())
  }

  /// The DummyJSON error shape: `{"message": "…"}` with a 4xx or 5xx status.
  static func message(_ text: String, status: Int) -> Reply {
    .json(.object(["message": .string(text)]), status: status)
  }
}
