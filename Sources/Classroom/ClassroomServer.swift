import CatalogServer
import FakeCatalog
import Foundation

/// `course classroom`: the room over HTTP, on the same server code as `course serve`.
///
/// Learners' `course` posts to `/join`, `/snapshot` and `/leave` with the join
/// code in `X-Join-Code` and, after joining, their key in `X-Learner`. The
/// instructor opens `/?token=TOKEN` once: the answer keeps the token in an
/// HttpOnly cookie and sends the browser to `/`, so the token leaves the
/// address bar (and the projector) and a reload still works. The page's script
/// reads `/room.json` every second and posts `/forget` to remove a row, both
/// with that cookie. Sockets, request parsing, size limits, timeouts and the
/// connection cap are `CatalogServer`'s (`Application.custom`); this type only
/// decides each answer, and tells the log who was refused and why.
///
/// ```swift
/// let room = try Room(path: ":memory:", stages: [Room.Stage(number: "01", name: "ViewCallsURLSession")])
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
    /// A learner on the same failing task this long is marked stuck; `nil`
    /// uses each stage's own figure (`Room.Stage.stuckMinutes`).
    public var stuckAfter: Duration?
    /// A learner who took a hint this recently is marked.
    public var hintFor: Duration
    /// Hears each request once it is over, with who was refused and why.
    public var log: @Sendable (ClassroomLogEntry) -> Void

    public init(
      port: UInt16 = 8090, address: String = "127.0.0.1", stuckAfter: Duration? = nil,
      hintFor: Duration = .seconds(5 * 60), log: @escaping @Sendable (ClassroomLogEntry) -> Void = { _ in }
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
        requestTimeout: .seconds(5), maxConnections: 512,
        log: { entry in
          // The answer was decided on this thread just before: its note says who and why.
          configuration.log(ClassroomLogEntry(request: entry, note: Note.take()))
        },
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

  /// The instructor's page: `http://…/?token=TOKEN`; the first visit moves the token into a cookie.
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
    Note.set(who: nil, why: nil)
    var who: String?
    do throws(ClassroomError) {
      switch (path, method) {
      case ("/join", "POST"):
        let request = try JoinRequest.decode(body)
        who = request.name
        let joined = try room.join(code: head.field("X-Join-Code"), name: request.name, machine: request.machine)
        who = joined.name
        Note.set(who: who, why: joined.rejoined ? "took back their row (same machine)" : "joined")
        return json(
          ["learner": joined.key, "name": joined.name, "rejoined": joined.rejoined ? "yes" : "no"],
          status: joined.rejoined ? 200 : 201)
      case ("/snapshot", "POST"):
        try room.post(code: head.field("X-Join-Code"), learner: head.field("X-Learner"), body: body)
        return Reply(status: 204, headers: [:], body: Data())
      case ("/leave", "POST"):
        who = room.name(ofLearner: head.field("X-Learner"))
        try room.leave(code: head.field("X-Join-Code"), learner: head.field("X-Learner"))
        Note.set(who: who, why: "left")
        return json(["left": "yes"], status: 200)
      case ("/forget", "POST"):
        try room.checkToken(token(head, query))
        guard head.field("Content-Type")?.hasPrefix("application/json") == true else {
          throw .malformed("a forget is JSON: {\"name\": \"NICKNAME\"}")
        }
        let request = try JoinRequest.decode(body)
        who = request.name
        let name = try room.forget(name: request.name)
        Note.set(who: name, why: "forgotten by the instructor")
        return json(["forgot": name], status: 200)
      case ("/", "GET"):
        if let given = query["token"] {
          try room.checkToken(given)
          // Once: the token goes into a cookie and off the address bar, where a projector would show it.
          var headers = noStore(type: "text/plain; charset=utf-8")
          headers["Location"] = "/"
          headers["Set-Cookie"] =
            "\(cookieName)=\(room.instructorToken); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(7 * 24 * 3_600)"
          Note.set(who: nil, why: "the instructor's token moved into a cookie")
          return Reply(status: 303, headers: headers, body: Data("See /\n".utf8))
        }
        try room.checkToken(token(head, query))
        return page(ClassroomPage.html, type: "text/html; charset=utf-8")
      case ("/classroom.js", "GET"):
        return page(ClassroomPage.script, type: "text/javascript; charset=utf-8")
      case ("/favicon.ico", "GET"):
        return Reply(status: 204, headers: noStore(type: "image/x-icon"), body: Data())
      case ("/room.json", "GET"):
        try room.checkToken(token(head, query))
        let view = try room.view(stuckAfter: configuration.stuckAfter, hintFor: configuration.hintFor)
        return Reply(status: 200, headers: noStore(type: "application/json; charset=utf-8"), body: view.encoded())
      case ("/join", _), ("/snapshot", _), ("/leave", _), ("/forget", _):
        throw .wrongMethod(allowed: "POST")
      case ("/", _), ("/classroom.js", _), ("/room.json", _):
        throw .wrongMethod(allowed: "GET")
      default:
        throw .notFound
      }
    } catch {
      // A refused snapshot is rare: only then is its learner looked up by key.
      if who == nil, path == "/snapshot" { who = room.name(ofLearner: head.field("X-Learner")) }
      Note.set(who: who, why: error.reason)
      var reply = json(["message": error.description], status: error.status)
      if case .tooOften(let seconds) = error { reply.headers["Retry-After"] = "\(seconds)" }
      if case .wrongToken = error, path == "/" {
        return Reply(
          status: 401, headers: noStore(type: "text/html; charset=utf-8"), body: Data(ClassroomPage.locked.utf8))
      }
      return reply
    }
  }

  /// The cookie that carries the instructor token after the first visit.
  static let cookieName = "classroom_token"

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

  /// The instructor token from `Authorization: Bearer`, the page's cookie, or `?token=`.
  private static func token(_ head: HTTPRequestHead, _ query: [String: String]) -> String? {
    if let bearer = head.field("Authorization"), bearer.hasPrefix("Bearer ") { return String(bearer.dropFirst(7)) }
    if let cookies = head.field("Cookie") {
      for pair in cookies.split(separator: ";") {
        let field = pair.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1).map(String.init)
        if field.count == 2, field[0] == cookieName { return field[1] }
      }
    }
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

/// The body of `POST /join`: `{"name": "NICKNAME", "machine": "KEY"}`, the
/// machine key optional, and nothing else; `POST /forget` takes the name alone.
struct JoinRequest {
  var name: String
  /// The laptop's machine key: 32 to 128 hexadecimal digits.
  var machine: String?

  static func decode(_ data: Data) throws(ClassroomError) -> JoinRequest {
    guard data.count <= 512 else { throw .tooLarge(limit: 512) }
    guard let object = try? JSONDecoder().decode([String: String].self, from: data) else {
      throw .malformed("the body is {\"name\": \"NICKNAME\"}")
    }
    guard let name = object["name"] else { throw .malformed("name is missing") }
    if let extra = object.keys.sorted().first(where: { $0 != "name" && $0 != "machine" }) {
      throw .malformed("\(extra) is not a field of a join")
    }
    let machine = object["machine"]
    if let machine, !(32...128).contains(machine.utf8.count) || !machine.utf8.allSatisfy(\.isHexDigit) {
      throw .malformed("machine is 32 to 128 hexadecimal digits")
    }
    return JoinRequest(name: name, machine: machine)
  }
}

extension UInt8 {
  fileprivate var isHexDigit: Bool { (48...57).contains(self) || (97...102).contains(self) || (65...70).contains(self) }
}

/// One request in the classroom's log: the server's entry, and who was refused and why.
public struct ClassroomLogEntry: Sendable, Equatable {
  public var request: RequestLogEntry
  /// The learner's nickname: the one a join asked for, or the one a learner key belongs to.
  public var learner: String?
  /// Why it was refused (`name taken by another machine`), or what it did (`joined`).
  public var reason: String?

  init(request: RequestLogEntry, note: Note?) {
    self.init(request: request, learner: note?.who, reason: note?.why)
  }

  /// A refused name may hold what the room refuses to show: control and
  /// formatting characters are kept as `\u{202E}`, so no name turns the
  /// instructor's terminal right to left or forges a line of the log.
  public init(request: RequestLogEntry, learner: String?, reason: String?) {
    self.request = request
    self.learner = learner.map(Self.visible)
    self.reason = reason.map(Self.visible)
  }

  static func visible(_ text: String) -> String {
    var shown = ""
    for scalar in text.unicodeScalars {
      switch scalar.properties.generalCategory {
      case .control, .format, .lineSeparator, .paragraphSeparator:
        shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
      default: shown.unicodeScalars.append(scalar)
      }
    }
    return shown
  }

  /// `POST /join 409 ann: name taken by another machine (286 B, 0.5 ms)`; the
  /// instructor token never appears, even from a query.
  public var line: String {
    let head = "\(request.method) \(Self.redacted(request.target)) \(request.resultText)"
    let (seconds, attoseconds) = request.duration.components
    let tenths = seconds * 10_000 + attoseconds / 100_000_000_000_000  // tenths of a millisecond
    let tail = "\(request.bytes) B, \(tenths / 10).\(tenths % 10) ms"
    switch (learner, reason) {
    case (let learner?, let reason?): return "\(head) \(learner): \(reason) (\(tail))"
    case (nil, let reason?): return "\(head) \(reason) (\(tail))"
    case (let learner?, nil): return "\(head) \(learner) (\(tail))"
    case (nil, nil): return "\(head) (\(tail))"
    }
  }

  /// The target with the value of any `token=` replaced by `…`.
  static func redacted(_ target: String) -> String {
    guard let range = target.range(of: "token=") else { return target }
    let rest = target[range.upperBound...]
    let end = rest.firstIndex(of: "&") ?? rest.endIndex
    return String(target[..<range.upperBound]) + "…" + String(rest[end...])
  }
}

/// Who a request was about and why it was answered so, handed from the answer
/// to the log line on the connection's thread (`CatalogServer` answers and then
/// logs each request on one thread).
struct Note: Sendable, Equatable {
  var who: String?
  var why: String?

  private static let key = "ClassroomServer.note"

  static func set(who: String?, why: String?) {
    Thread.current.threadDictionary[key] = [who ?? "", why ?? ""]
  }

  /// The note of the request just answered on this thread, once.
  static func take() -> Note? {
    let dictionary = Thread.current.threadDictionary
    guard let parts = dictionary[key] as? [String], parts.count == 2 else { return nil }
    dictionary.removeObject(forKey: key)
    return Note(who: parts[0].isEmpty ? nil : parts[0], why: parts[1].isEmpty ? nil : parts[1])
  }
}
