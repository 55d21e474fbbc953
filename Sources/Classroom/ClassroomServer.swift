import CatalogServer
import FakeCatalog
import Foundation

/// `course classroom`: the room over HTTP, on the same server code as `course serve`.
///
/// Learners' `course` posts to `/join`, `/snapshot` and `/leave` with the join
/// code in `X-Join-Code` and, after joining, their key in `X-Learner`. The
/// instructor opens `/?token=TOKEN`; the page's script reads `/room.json` with
/// the same token every second. Sockets, request parsing, size limits, timeouts
/// and the connection cap are `CatalogServer`'s (`Application.custom`); this
/// type only decides each answer.
///
/// ```swift
/// let room = try Room(path: ":memory:", stages: [("01", "ViewCallsURLSession")])
/// let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
/// try classroom.start()
/// defer { classroom.stop() }
/// ```
public final class ClassroomServer: Sendable {
  /// How the classroom listens and what it calls stuck.
  public struct Configuration: Sendable {
    /// The port; 0 picks a free one.
    public var port: UInt16
    /// The IPv4 address to listen on: 127.0.0.1, this laptop only, unless the
    /// room's network must reach it (`0.0.0.0`, or the laptop's address there).
    public var address: String
    /// A learner on the same failing task this long is marked stuck.
    public var stuckAfter: Duration
    /// A learner who took a hint this recently is marked.
    public var hintFor: Duration
    /// Hears each request once it is over.
    public var log: @Sendable (RequestLogEntry) -> Void

    public init(
      port: UInt16 = 8090, address: String = "127.0.0.1", stuckAfter: Duration = .seconds(15 * 60),
      hintFor: Duration = .seconds(5 * 60), log: @escaping @Sendable (RequestLogEntry) -> Void = { _ in }
    ) {
      self.port = port
      self.address = address
      self.stuckAfter = stuckAfter
      self.hintFor = hintFor
      self.log = log
    }
  }

  /// The largest request body read: a snapshot is at most `Snapshot.maxBytes`.
  public static let maxBodyBytes = 4_096

  public let room: Room
  public let configuration: Configuration
  private let server: CatalogServer

  /// Makes the classroom; nothing listens until `start()`.
  public init(room: Room, configuration: Configuration = Configuration()) {
    self.room = room
    self.configuration = configuration
    var limits = HTTPLimits()
    limits.maxBodyBytes = Self.maxBodyBytes
    limits.maxHeaderCount = 40
    server = CatalogServer(
      CatalogServer.Configuration(
        port: configuration.port, products: [], limits: limits, idleTimeout: .seconds(10),
        requestTimeout: .seconds(5), maxConnections: 512, log: configuration.log,
        address: configuration.address,
        application: .custom { head, body in
          ClassroomServer.answer(head, body, room: room, configuration: configuration)
        }))
  }

  /// Starts listening.
  ///
  /// - Throws: `CatalogServerError.cannotListen` when the port is taken or the address is not this machine's.
  public func start() throws(CatalogServerError) { try server.start() }

  /// Closes the port and every connection; calling it again does nothing.
  public func stop() { server.stop() }

  /// The port it listens on, known once `start()` returned.
  public var port: UInt16 { server.port }

  /// `http://ADDRESS:PORT`, with 127.0.0.1 for `0.0.0.0`.
  public var baseURL: URL { server.baseURL }

  /// The instructor's page: `http://…/?token=TOKEN`.
  public func pageURL(host: String? = nil) -> String {
    "http://\(host ?? baseURL.host ?? "127.0.0.1"):\(port)/?token=\(room.instructorToken)"
  }

  // MARK: Answers

  /// The answer to one request, decided in process: what a socket client gets.
  public func answer(_ head: HTTPRequestHead, _ body: Data) -> Reply {
    Self.answer(head, body, room: room, configuration: configuration)
  }

  static func answer(_ head: HTTPRequestHead, _ body: Data, room: Room, configuration: Configuration) -> Reply {
    let (path, query) = split(head.target)
    let method = head.method == "HEAD" ? "GET" : head.method
    do throws(ClassroomError) {
      switch (path, method) {
      case ("/join", "POST"):
        let name = try JoinRequest.decode(body)
        let key = try room.join(code: head.field("X-Join-Code"), name: name)
        return json(["learner": key, "name": name], status: 201)
      case ("/snapshot", "POST"):
        try room.post(code: head.field("X-Join-Code"), learner: head.field("X-Learner"), body: body)
        return Reply(status: 204, headers: [:], body: Data())
      case ("/leave", "POST"):
        try room.leave(code: head.field("X-Join-Code"), learner: head.field("X-Learner"))
        return json(["left": "yes"], status: 200)
      case ("/", "GET"):
        try room.checkToken(token(head, query))
        return page(ClassroomPage.html, type: "text/html; charset=utf-8")
      case ("/classroom.js", "GET"):
        return page(ClassroomPage.script, type: "text/javascript; charset=utf-8")
      case ("/room.json", "GET"):
        try room.checkToken(token(head, query))
        let view = try room.view(stuckAfter: configuration.stuckAfter, hintFor: configuration.hintFor)
        return Reply(status: 200, headers: noStore(type: "application/json; charset=utf-8"), body: view.encoded())
      case ("/join", _), ("/snapshot", _), ("/leave", _):
        throw .wrongMethod(allowed: "POST")
      case ("/", _), ("/classroom.js", _), ("/room.json", _):
        throw .wrongMethod(allowed: "GET")
      default:
        throw .notFound
      }
    } catch {
      var reply = json(["message": error.description], status: error.status)
      if case .tooOften(let seconds) = error { reply.headers["Retry-After"] = "\(seconds)" }
      if case .wrongToken = error, path == "/" {
        return Reply(
          status: 401, headers: noStore(type: "text/html; charset=utf-8"), body: Data(ClassroomPage.locked.utf8))
      }
      return reply
    }
  }

  /// The path, and the query's items.
  private static func split(_ target: String) -> (String, [String: String]) {
    let parts = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
    var items: [String: String] = [:]
    if parts.count == 2 {
      for pair in parts[1].split(separator: "&") {
        let field = pair.split(separator: "=", maxSplits: 1).map(String.init)
        if field.count == 2 { items[field[0]] = field[1].removingPercentEncoding ?? field[1] }
      }
    }
    return (String(parts[0]), items)
  }

  /// The instructor token from `?token=` or `Authorization: Bearer`.
  private static func token(_ head: HTTPRequestHead, _ query: [String: String]) -> String? {
    if let bearer = head.field("Authorization"), bearer.hasPrefix("Bearer ") { return String(bearer.dropFirst(7)) }
    return query["token"]
  }

  private static func json(_ object: [String: String], status: Int) -> Reply {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return Reply(
      status: status, headers: noStore(type: "application/json; charset=utf-8"),
      body: (try? encoder.encode(object)) ?? Data())
  }

  private static func page(_ text: String, type: String) -> Reply {
    var headers = noStore(type: type)
    // The script comes from this server alone and reaches only this server; nothing is framed or sniffed.
    headers["Content-Security-Policy"] =
      "default-src 'none'; script-src 'self'; connect-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'"
    return Reply(status: 200, headers: headers, body: Data(text.utf8))
  }

  private static func noStore(type: String) -> [String: String] {
    [
      "Content-Type": type, "Cache-Control": "no-store", "X-Content-Type-Options": "nosniff",
      "Referrer-Policy": "no-referrer",
    ]
  }
}

/// The body of `POST /join`: `{"name": "NICKNAME"}`, and nothing else.
enum JoinRequest {
  static func decode(_ data: Data) throws(ClassroomError) -> String {
    guard data.count <= 512 else { throw .tooLarge(limit: 512) }
    guard let object = try? JSONDecoder().decode([String: String].self, from: data) else {
      throw .malformed("the body is {\"name\": \"NICKNAME\"}")
    }
    guard let name = object["name"] else { throw .malformed("name is missing") }
    if let extra = object.keys.sorted().first(where: { $0 != "name" }) {
      throw .malformed("\(extra) is not a field of a join")
    }
    return name
  }
}
