/// One request as the server's log shows it, on one line.
public struct RequestLogEntry: Sendable, Equatable {
  /// What became of a request.
  public enum Result: Sendable, Equatable {
    /// Answered with this status.
    case status(Int)
    /// Answered with this status, but the connection closed after `sent` of `promised` body bytes.
    case cut(status: Int, sent: Int, promised: Int)
    /// The body was sent with no status line or headers.
    case notHTTP
    /// The connection closed without an answer.
    case closed
    /// No answer was sent; the server waited until the client gave up.
    case stalled
  }

  /// The method, or `-` when the request line did not parse.
  public var method: String
  /// The request target, or `-`.
  public var target: String
  public var result: Result
  /// The response bytes written, head and body.
  public var bytes: Int
  /// From the first byte of the request to the last byte of the answer.
  public var duration: Duration

  /// `GET /products?limit=2 200 1843 B 0.4 ms`.
  public var line: String {
    "\(method) \(target) \(resultText) \(bytes) B \(Self.milliseconds(duration)) ms"
  }

  /// The status, or how the exchange ended without one: `200`, `200 cut after 10 of 90 body bytes,`.
  public var resultText: String {
    switch result {
    case .status(let status): "\(status)"
    case .cut(let status, let sent, let promised): "\(status) cut after \(sent) of \(promised) body bytes,"
    case .notHTTP: "not HTTP,"
    case .closed: "closed without an answer,"
    case .stalled: "stalled until the client gave up,"
    }
  }

  /// The status, when one was sent.
  public var status: Int? {
    switch result {
    case .status(let status), .cut(let status, _, _): status
    case .notHTTP, .closed, .stalled: nil
    }
  }

  static func milliseconds(_ duration: Duration) -> String {
    let (seconds, attoseconds) = duration.components
    let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000  // tenths of a millisecond
    return "\(tenths / 10).\(tenths % 10)"
  }
}
