import FakeCatalog
import Foundation

/// One client connection, served on its own thread until it closes.
///
/// Not `Sendable`: it owns its socket and lives on one thread.
struct Connection {
  let server: CatalogServer
  let socket: Socket

  private var limits: HTTPLimits { server.configuration.limits }
  private var timeoutMilliseconds: Int32 { Self.milliseconds(server.configuration.idleTimeout) }

  private static func milliseconds(_ duration: Duration) -> Int32 {
    let (seconds, attoseconds) = duration.components
    return Int32(clamping: max(0, seconds * 1000 + attoseconds / 1_000_000_000_000_000))
  }

  /// Serves requests until the client leaves, the connection idles out, or an answer ends it.
  func run() {
    var buffer: [UInt8] = []
    while true {
      if buffer.isEmpty {
        guard socket.waitReadable(milliseconds: timeoutMilliseconds) == .readable,
          socket.receive(into: &buffer) > 0
        else { return }
      }
      let started = ContinuousClock.now
      guard server.setPhase(socket.descriptor, .reading(since: started)) else { return }
      let keepOpen = serveOne(&buffer, started: started)
      guard server.setPhase(socket.descriptor, .idle(since: .now)), keepOpen else { return }
    }
  }

  /// Reads one request from `buffer` and the socket, answers it, and says whether to keep the connection.
  private func serveOne(_ buffer: inout [UInt8], started: ContinuousClock.Instant) -> Bool {
    // The whole request, however slowly it comes, by this deadline: a byte now and
    // then does not keep a connection.
    let deadline = started + server.configuration.requestTimeout
    var parsed = HTTPRequestParser.parse(buffer[...], limits: limits)
    while parsed == .needMore {
      guard readMore(into: &buffer, by: deadline) else { return false }
      parsed = HTTPRequestParser.parse(buffer[...], limits: limits)
    }
    let head: HTTPRequestHead
    switch parsed {
    case .needMore: return false
    case .failure(let error):
      let reply = Reply.message(error.reason, status: error.status)
      let sent = send(reply, keepAlive: false, includeBody: true)
      log("-", "-", .status(error.status), sent, started)
      return false
    case .head(let parsedHead, let headLength):
      head = parsedHead
      buffer.removeFirst(headLength)
    }
    if head.expectsContinue && buffer.count < head.contentLength {
      socket.send(HTTPResponse.continueHead)
    }
    while buffer.count < head.contentLength {
      guard readMore(into: &buffer, by: deadline) else { return false }
    }
    guard server.setPhase(socket.descriptor, .answering) else { return false }
    let body = Data(buffer.prefix(head.contentLength))
    buffer.removeFirst(head.contentLength)
    let keepAlive = head.keepsAlive
    let includeBody = head.method != "HEAD"

    if case .custom(let answer) = server.configuration.application {
      let reply = answer(head, body)
      let sent = send(reply, keepAlive: keepAlive, includeBody: includeBody)
      log(head.method, head.target, .status(reply.status), sent, started)
      return keepAlive
    }
    if head.target == "/__admin" || head.target.hasPrefix("/__admin?") {
      let reply = server.adminReply(method: head.method, body: body)
      let sent = send(reply, keepAlive: keepAlive, includeBody: includeBody)
      log(head.method, head.target, .status(reply.status), sent, started)
      return keepAlive
    }
    guard let url = URL(string: server.baseURL.absoluteString + head.target) else {
      let sent = send(.message("Malformed request target", status: 400), keepAlive: false, includeBody: true)
      log(head.method, head.target, .status(400), sent, started)
      return false
    }
    let request = RecordedRequest(
      method: head.method, url: url, headers: head.headers, body: head.contentLength > 0 ? body : nil)
    switch server.respond(to: request) {
    case .reply(let reply):
      let sent = send(reply, keepAlive: keepAlive, includeBody: includeBody)
      log(head.method, head.target, .status(reply.status), sent, started)
      return keepAlive
    case .truncated(let reply, let keeping):
      let bytes = HTTPResponse.head(of: reply, keepAlive: false) + Array(reply.body.prefix(keeping))
      socket.send(bytes)
      log(
        head.method, head.target, .cut(status: reply.status, sent: keeping, promised: reply.body.count), bytes.count,
        started)
      return false
    case .notHTTP(let reply):
      socket.send(Array(reply.body))
      log(head.method, head.target, .notHTTP, reply.body.count, started)
      return false
    case .offline, .lost, .cancelled:
      log(head.method, head.target, .closed, 0, started)
      return false
    case .timeout:
      stall()
      log(head.method, head.target, .stalled, 0, started)
      return false
    }
  }

  /// Reads more of a request; `false` when the client left, went quiet for
  /// `idleTimeout`, or the request's `deadline` passed.
  private func readMore(into buffer: inout [UInt8], by deadline: ContinuousClock.Instant) -> Bool {
    let left = Self.milliseconds(deadline - ContinuousClock.now)
    guard left > 0 else { return false }
    return socket.waitReadable(milliseconds: min(timeoutMilliseconds, left)) == .readable
      && socket.receive(into: &buffer) > 0
  }

  /// Sends `reply` and returns how many bytes went out.
  private func send(_ reply: Reply, keepAlive: Bool, includeBody: Bool) -> Int {
    var bytes = HTTPResponse.head(of: reply, keepAlive: keepAlive)
    if includeBody { bytes += reply.body }
    socket.send(bytes)
    return bytes.count
  }

  /// Sends nothing until the client gives up, the server stops, or `stallLimit` passes.
  private func stall() {
    let deadline = ContinuousClock.now + server.configuration.stallLimit
    var scratch: [UInt8] = []
    while !server.isStopping && ContinuousClock.now < deadline {
      guard socket.waitReadable(milliseconds: 100) == .readable else { continue }
      scratch.removeAll(keepingCapacity: true)
      guard socket.receive(into: &scratch) > 0 else { return }
    }
  }

  private func log(
    _ method: String, _ target: String, _ result: RequestLogEntry.Result, _ bytes: Int,
    _ started: ContinuousClock.Instant
  ) {
    server.configuration.log(
      RequestLogEntry(
        method: method, target: target, result: result, bytes: bytes, duration: ContinuousClock.now - started))
  }
}
