import CourseFixtures
import Foundation

/// An HTTP answer before a transport turns it into a response.
public struct Reply: Sendable {
  /// The HTTP status code, such as 200 or 404.
  public var status: Int
  /// The header fields, `Content-Type` included.
  public var headers: [String: String] = ["Content-Type": "application/json; charset=utf-8"]
  /// The body's bytes.
  public var body: Data
  /// `false` delivers a plain `URLResponse` instead of an `HTTPURLResponse`.
  var isHTTP = true

  /// Makes a reply.
  public init(status: Int, headers: [String: String] = ["Content-Type": "application/json; charset=utf-8"], body: Data)
  {
    self.status = status
    self.headers = headers
    self.body = body
  }

  /// A JSON reply.
  public static func json(_ value: JSONValue, status: Int = 200) -> Reply {
    Reply(status: status, body: value.encoded())
  }

  /// The DummyJSON error shape: `{"message": "…"}` with a 4xx or 5xx status.
  public static func message(_ text: String, status: Int) -> Reply {
    .json(.object(["message": .string(text)]), status: status)
  }
}
