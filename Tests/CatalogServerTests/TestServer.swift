import Foundation
import Synchronization
import Testing

@testable import CatalogServer

/// Starts a server on a free port for one test, and stops it afterwards.
func withServer(
  offline: Bool = false, failRate: Double = 0,
  _ body: (CatalogServer, LogRecorder) async throws -> Void
) async throws {
  let log = LogRecorder()
  let configuration = CatalogServer.Configuration(
    port: 0, failRate: failRate, offline: offline, log: { log.add($0) })
  try await CatalogServer.withRunning(configuration) { server in try await body(server, log) }
}

/// Keeps the server's log entries for a test to read.
final class LogRecorder: Sendable {
  private let entries = Mutex<[RequestLogEntry]>([])
  func add(_ entry: RequestLogEntry) { entries.withLock { $0.append(entry) } }
  var all: [RequestLogEntry] { entries.withLock { $0 } }
}

/// One HTTP response as a raw client read it.
struct RawResponse: Sendable {
  var status: Int
  var headers: [String: String]
  var body: [UInt8]

  func header(_ name: String) -> String? {
    headers.first { $0.key.lowercased() == name.lowercased() }?.value
  }
  var text: String { String(decoding: body, as: UTF8.self) }
}

/// What a raw connection saw: the complete responses, and whether the server closed it.
struct Transcript: Sendable {
  var responses: [RawResponse]
  var closedByServer: Bool
  var leftover: [UInt8]
}

/// A client that writes bytes of its choice on a socket, for what URLSession never sends.
///
/// Its blocking reads run on a thread of their own, never on the test's
/// cooperative threads, which the server's answers need.
enum RawClient {
  /// Connects, writes `chunks` one after another, and reads until `responses`
  /// complete responses arrived, the server closed, or 5 seconds passed.
  ///
  /// - Parameter finish: Closes the client's sending side after the chunks, so the
  ///   server knows no more bytes are coming.
  static func exchange(
    port: UInt16, _ chunks: [[UInt8]], responses expected: Int = 1, finish: Bool = false
  ) async -> Transcript? {
    await offThePool {
      guard let socket = Socket.connect(toLoopbackPort: port) else { return nil }
      for chunk in chunks { socket.send(chunk) }
      if finish { socket.finishWriting() }
      var buffer: [UInt8] = []
      var closed = false
      let deadline = ContinuousClock.now + .seconds(5)
      while parse(buffer).responses.count < expected && ContinuousClock.now < deadline {
        guard socket.waitReadable(milliseconds: 100) == .readable else { continue }
        if socket.receive(into: &buffer) == 0 {
          closed = true
          break
        }
      }
      if !closed && expected > 0 {
        // A short look for the close that follows an answer with `Connection: close`.
        if socket.waitReadable(milliseconds: 300) == .readable {
          closed = socket.receive(into: &buffer) == 0
        }
      }
      let parsed = parse(buffer)
      return Transcript(responses: parsed.responses, closedByServer: closed, leftover: parsed.leftover)
    }
  }

  static func exchange(port: UInt16, _ text: String, responses: Int = 1) async -> Transcript? {
    await exchange(port: port, [Array(text.utf8)], responses: responses)
  }

  /// Whether a connection to the port is refused.
  static func isRefused(port: UInt16) async -> Bool {
    await offThePool { Socket.connect(toLoopbackPort: port) == nil }
  }

  static func parse(_ bytes: [UInt8]) -> (responses: [RawResponse], leftover: [UInt8]) {
    var responses: [RawResponse] = []
    var rest = bytes[...]
    while let end = HTTPRequestParser.endOfHead(in: rest) {
      let lines = String(decoding: rest[rest.startIndex..<end], as: UTF8.self).components(separatedBy: "\r\n")
      let statusParts = lines[0].split(separator: " ")
      guard statusParts.count >= 2, let status = Int(statusParts[1]) else { break }
      var headers: [String: String] = [:]
      for line in lines.dropFirst() {
        guard let colon = line.firstIndex(of: ":") else { continue }
        headers[String(line[..<colon])] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
      let length = status == 100 ? 0 : Int(headers["Content-Length"] ?? "0") ?? 0
      let bodyStart = end + 4
      guard rest.endIndex - bodyStart >= length else { break }
      if status != 100 {
        responses.append(
          RawResponse(status: status, headers: headers, body: Array(rest[bodyStart..<bodyStart + length])))
      }
      rest = rest[(bodyStart + length)...]
    }
    return (responses, Array(rest))
  }
}

/// Runs blocking work on a new thread and waits for it without holding a cooperative thread.
func offThePool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
  await withCheckedContinuation { continuation in
    Thread { continuation.resume(returning: work()) }.start()
  }
}

/// `GET path` with a Host header, as one string.
func get(_ target: String, _ extra: String = "") -> String {
  "GET \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(extra)\r\n"
}

/// Keeps a connection open while a test does something else.
///
/// `@unchecked Sendable`: the test only holds it; no thread reads or writes the socket.
final class HeldSocket: @unchecked Sendable {
  let socket: Socket
  init(_ socket: Socket) { self.socket = socket }
}
