import Foundation

/// The request line and header fields of one HTTP/1.x request, checked.
public struct HTTPRequestHead: Sendable, Equatable {
  /// The method, such as `GET`.
  public var method: String
  /// The request target as sent, path and query, such as `/products?limit=5`.
  public var target: String
  /// 0 for HTTP/1.0, 1 for HTTP/1.1.
  public var minorVersion: Int
  /// The header fields in the order they came.
  public var fields: [(name: String, value: String)]
  /// The body's length from `Content-Length`; 0 when there is none.
  public var contentLength: Int

  /// The value of the first field called `name`, compared without regard to case.
  public func field(_ name: String) -> String? {
    fields.first { $0.name.caseInsensitiveEquals(name) }?.value
  }

  /// Whether the connection stays open after the answer: HTTP/1.1 unless
  /// `Connection: close`, HTTP/1.0 only with `Connection: keep-alive`.
  public var keepsAlive: Bool {
    let tokens = (field("Connection") ?? "").lowercased().split(separator: ",").map {
      $0.trimmingCharacters(in: .whitespaces)
    }
    return minorVersion >= 1 ? !tokens.contains("close") : tokens.contains("keep-alive")
  }

  /// Whether the client waits for `100 Continue` before it sends the body.
  public var expectsContinue: Bool {
    field("Expect")?.lowercased() == "100-continue"
  }

  /// The fields as one dictionary; repeated names are joined with ", ".
  public var headers: [String: String] {
    var headers: [String: String] = [:]
    for (name, value) in fields {
      if let key = headers.keys.first(where: { $0.caseInsensitiveEquals(name) }) {
        headers[key] = (headers[key] ?? "") + ", " + value
      } else {
        headers[name] = value
      }
    }
    return headers
  }

  public static func == (lhs: HTTPRequestHead, rhs: HTTPRequestHead) -> Bool {
    lhs.method == rhs.method && lhs.target == rhs.target && lhs.minorVersion == rhs.minorVersion
      && lhs.contentLength == rhs.contentLength && lhs.fields.elementsEqual(rhs.fields) { $0 == $1 }
  }
}

extension String {
  func caseInsensitiveEquals(_ other: String) -> Bool {
    lowercased() == other.lowercased()
  }
}
