import FakeCatalog
import Foundation

/// The bytes of an HTTP/1.1 response.
enum HTTPResponse {
  /// The status line and headers of `reply`, with its `Content-Length` and `Connection`.
  ///
  /// - Parameter contentLength: The length announced; the body's own by default.
  static func head(of reply: Reply, keepAlive: Bool, contentLength: Int? = nil) -> [UInt8] {
    var text = "HTTP/1.1 \(reply.status) \(reason(for: reply.status))\r\n"
    for (name, value) in reply.headers.sorted(by: { $0.key < $1.key })
    where !["content-length", "connection"].contains(name.lowercased()) {
      text += "\(name): \(value)\r\n"
    }
    text += "Content-Length: \(contentLength ?? reply.body.count)\r\n"
    text += "Connection: \(keepAlive ? "keep-alive" : "close")\r\n\r\n"
    return Array(text.utf8)
  }

  /// The interim answer to `Expect: 100-continue`.
  static let continueHead = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)

  /// The reason phrase for a status; clients read the code, people read this.
  static func reason(for status: Int) -> String {
    switch status {
    case 200: "OK"
    case 201: "Created"
    case 204: "No Content"
    case 400: "Bad Request"
    case 401: "Unauthorized"
    case 403: "Forbidden"
    case 404: "Not Found"
    case 408: "Request Timeout"
    case 409: "Conflict"
    case 413: "Content Too Large"
    case 422: "Unprocessable Content"
    case 429: "Too Many Requests"
    case 431: "Request Header Fields Too Large"
    case 500: "Internal Server Error"
    case 501: "Not Implemented"
    case 502: "Bad Gateway"
    case 503: "Service Unavailable"
    case 504: "Gateway Timeout"
    case 505: "HTTP Version Not Supported"
    default: "Status \(status)"
    }
  }
}
