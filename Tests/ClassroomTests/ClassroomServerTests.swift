import FakeCatalog
import Foundation
import Synchronization
import Testing

@testable import CatalogServer
@testable import Classroom

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// `course classroom` over real loopback sockets, and its answers in process.
struct ClassroomServerTests {
  /// Starts a classroom on a free port of 127.0.0.1 for one test.
  /// The room's clock stands still unless the test moves it, so no count depends on how fast the machine is.
  static func withClassroom(
    clock: RoomTests.Clock = RoomTests.Clock(), log: @escaping @Sendable (ClassroomLogEntry) -> Void = { _ in },
    _ body: (ClassroomServer) async throws -> Void
  ) async throws {
    let room = try Room(path: ":memory:", stages: RoomTests.stages, now: { clock.now })
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0, log: log))
    try classroom.start()
    defer { classroom.stop() }
    try await body(classroom)
  }

  static func request(
    _ classroom: ClassroomServer, _ method: String, _ target: String, headers: [String: String] = [:],
    body: Data? = nil
  ) async throws -> (status: Int, headers: [String: String], body: Data) {
    let url = try #require(URL(string: classroom.baseURL.absoluteString + target))
    var request = URLRequest(url: url)
    request.httpMethod = method
    request.httpBody = body
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let session = URLSession(configuration: .ephemeral)
    defer { session.finishTasksAndInvalidate() }
    let (data, response) = try await session.data(for: request)
    let http = try #require(response as? HTTPURLResponse)
    var fields: [String: String] = [:]
    for (name, value) in http.allHeaderFields { fields["\(name)".lowercased()] = "\(value)" }
    return (http.statusCode, fields, data)
  }

  static func join(_ classroom: ClassroomServer, _ name: String) async throws -> String {
    let answer = try await request(
      classroom, "POST", "/join", headers: ["X-Join-Code": classroom.room.joinCode],
      body: try JSONEncoder().encode(["name": name]))
    #expect(answer.status == 201, "a join with the code is created: \(String(decoding: answer.body, as: UTF8.self))")
    return try #require(try JSONDecoder().decode([String: String].self, from: answer.body)["learner"])
  }

  @Test(.timeLimit(.minutes(1))) func learnersJoinAndPostAndTheInstructorReadsTheRoomOverSockets() async throws {
    try await Self.withClassroom { classroom in
      let code = classroom.room.joinCode
      let ann = try await Self.join(classroom, "ann")
      let posted = try await Self.request(
        classroom, "POST", "/snapshot", headers: ["X-Join-Code": code, "X-Learner": ann],
        body: RoomTests.snapshot(task: 3, seconds: 60))
      #expect(posted.status == 204, "a valid snapshot is taken")

      let token = classroom.room.instructorToken
      let page = try await Self.request(classroom, "GET", "/", headers: ["Cookie": "classroom_token=\(token)"])
      #expect(page.status == 200)
      #expect(page.headers["content-type"]?.hasPrefix("text/html") == true)
      #expect(
        page.headers["content-security-policy"]?.contains("script-src 'self'") == true,
        "no inline or foreign script can run on the page")
      let data = try await Self.request(classroom, "GET", "/room.json", headers: ["Authorization": "Bearer \(token)"])
      #expect(data.status == 200)
      let view = try JSONDecoder().decode(ViewRows.self, from: data.body)
      #expect(view.rows.map(\.name) == ["ann"])
      #expect(view.rows.first?.cells.map(\.state) == ["solved", "current", "notStarted"])
      let script = try await Self.request(classroom, "GET", "/classroom.js")
      #expect(String(decoding: script.body, as: UTF8.self).contains("textContent"), "names go in as text")
      #expect(!String(decoding: script.body, as: UTF8.self).contains("innerHTML"), "never as markup")
    }
  }

  /// What the page's script reads of the room, decoded the way it reads it.
  struct ViewRows: Decodable {
    struct Row: Decodable {
      struct Cell: Decodable { var state: String }
      var name: String
      var cells: [Cell]
    }
    var rows: [Row]
  }

  @Test(.timeLimit(.minutes(1))) func refusesWithAClearStatusEachTime() async throws {
    try await Self.withClassroom { classroom in
      let code = classroom.room.joinCode
      let ann = try await Self.join(classroom, "ann")
      let cases: [(String, String, [String: String], Data?, Int, String)] = [
        ("GET", "/", [:], nil, 401, "the page needs the token"),
        ("GET", "/?token=wrong", [:], nil, 401, "and the right one"),
        ("GET", "/", ["Cookie": "classroom_token=wrong"], nil, 401, "in its cookie too"),
        ("POST", "/forget", ["Content-Type": "application/json"], Data(#"{"name":"ann"}"#.utf8), 401, "forget too"),
        ("GET", "/room.json", [:], nil, 401, "so does its data"),
        ("GET", "/room.json?token=\(code)", [:], nil, 401, "the join code is not the token"),
        ("POST", "/join", [:], Data(#"{"name":"bo"}"#.utf8), 401, "a join needs the code"),
        ("POST", "/snapshot", ["X-Learner": ann], RoomTests.snapshot(), 401, "a snapshot needs the code"),
        (
          "POST", "/snapshot", ["X-Join-Code": code, "X-Learner": "nobody"], RoomTests.snapshot(), 404, "and a learner"
        ),
        ("POST", "/snapshot", ["X-Join-Code": code, "X-Learner": ann], Data("{\"event\":".utf8), 400, "malformed"),
        ("POST", "/join", ["X-Join-Code": code], Data(#"{"name":"ann"}"#.utf8), 409, "a name taken"),
        ("POST", "/join", ["X-Join-Code": code], Data(#"{"name":"bo","admin":true}"#.utf8), 400, "an extra field"),
        ("GET", "/snapshot", [:], nil, 405, "the wrong method"),
        ("GET", "/etc/passwd", [:], nil, 404, "no such page"),
      ]
      for (method, target, headers, body, status, why) in cases {
        let answer = try await Self.request(classroom, method, target, headers: headers, body: body)
        #expect(answer.status == status, "\(method) \(target): \(why); got \(answer.status)")
      }
      let learners = try classroom.room.learners()
      #expect(learners.map(\.name) == ["ann"] && learners.first?.snapshot == nil, "refused requests changed nothing")
    }
  }

  @Test(.timeLimit(.minutes(1))) func slowsALearnerWhoPostsTooOftenWith429AndRetryAfter() async throws {
    try await Self.withClassroom { classroom in
      let ann = try await Self.join(classroom, "ann")
      var statuses: [Int] = []
      var retryAfter: String?
      for _ in 0..<8 {
        let answer = try await Self.request(
          classroom, "POST", "/snapshot", headers: ["X-Join-Code": classroom.room.joinCode, "X-Learner": ann],
          body: RoomTests.snapshot())
        statuses.append(answer.status)
        if answer.status == 429 { retryAfter = answer.headers["retry-after"] }
      }
      #expect(statuses.prefix(5).allSatisfy { $0 == 204 }, "a burst of 5 is taken: \(statuses)")
      #expect(statuses.contains(429), "then the learner is slowed: \(statuses)")
      #expect(retryAfter == "1", "and told when to come back")
    }
  }

  @Test func refusesABodyPastTheLimitBeforeReadingIt() throws {
    let room = try Room(path: ":memory:", stages: RoomTests.stages)
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
    try classroom.start()
    defer { classroom.stop() }
    let head =
      "POST /snapshot HTTP/1.1\r\nHost: x\r\nX-Join-Code: \(room.joinCode)\r\nContent-Length: 1000000\r\n\r\n"
    let answer = try #require(RawExchange.send(Array(head.utf8), port: classroom.port))
    #expect(answer.hasPrefix("HTTP/1.1 413 "), "a million bytes are refused from the head alone: \(answer)")
  }

  @Test func answersInProcessAsOverTheSocket() throws {
    let room = try Room(path: ":memory:", stages: RoomTests.stages)
    let classroom = ClassroomServer(room: room)
    let head = HTTPRequestHead(
      method: "POST", target: "/join", minorVersion: 1, fields: [("X-Join-Code", room.joinCode)], contentLength: 15)
    let reply = classroom.answer(head, Data(#"{"name":"ann"}"#.utf8))
    #expect(reply.status == 201)
    let page = classroom.answer(
      HTTPRequestHead(
        method: "GET", target: "/", minorVersion: 1, fields: [("Cookie", "classroom_token=\(room.instructorToken)")],
        contentLength: 0),
      Data())
    #expect(String(decoding: page.body, as: UTF8.self).contains("<script src=\"/classroom.js\">"))
  }

  /// The first visit moves the token into a cookie and the browser to the bare page, which a reload keeps working.
  @Test func theTokenLeavesTheAddressBarAfterTheFirstVisit() throws {
    let room = try Room(path: ":memory:", stages: RoomTests.stages)
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
    try classroom.start()
    defer { classroom.stop() }
    let token = room.instructorToken
    let first = try #require(
      RawExchange.send(
        Array("GET /?token=\(token) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: classroom.port))
    let head = first.components(separatedBy: "\r\n\r\n")[0].lowercased()
    #expect(first.hasPrefix("HTTP/1.1 303 "), "the first visit is sent on: \(head)")
    #expect(head.contains("\r\nlocation: /\r\n"), "to the bare path, without the token: \(head)")
    #expect(
      head.contains("set-cookie: classroom_token=\(token); path=/; httponly; samesite=strict"),
      "the token goes into a cookie scripts cannot read and other sites cannot send: \(head)")
    for target in ["/", "/room.json"] {
      let again = try #require(
        RawExchange.send(
          Array(
            "GET \(target) HTTP/1.1\r\nHost: x\r\nCookie: other=1; classroom_token=\(token)\r\nConnection: close\r\n\r\n"
              .utf8),
          port: classroom.port))
      #expect(again.hasPrefix("HTTP/1.1 200 "), "a reload of \(target) works with the cookie: \(again.prefix(40))")
    }
    let bare = try #require(
      RawExchange.send(Array("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8), port: classroom.port))
    #expect(bare.hasPrefix("HTTP/1.1 401 "), "without token or cookie, still 401: \(bare.prefix(40))")
    let script = String(
      decoding: classroom.answer(
        HTTPRequestHead(method: "GET", target: "/classroom.js", minorVersion: 1, fields: [], contentLength: 0), Data()
      ).body, as: UTF8.self)
    #expect(!script.contains("token"), "the script never reads the token from the address")
  }

  @Test(.timeLimit(.minutes(1))) func aLaptopRejoinsAndTheInstructorForgetsOverSockets() async throws {
    try await Self.withClassroom { classroom in
      let code = classroom.room.joinCode
      func join(_ name: String, _ machine: String?) async throws -> (Int, [String: String]) {
        var fields = ["name": name]
        fields["machine"] = machine
        let answer = try await Self.request(
          classroom, "POST", "/join", headers: ["X-Join-Code": code], body: try JSONEncoder().encode(fields))
        return (answer.status, (try? JSONDecoder().decode([String: String].self, from: answer.body)) ?? [:])
      }
      let first = try await join("ann", RoomTests.laptopA)
      #expect(first.0 == 201 && first.1["rejoined"] == "no", "\(first)")
      let again = try await join("ann", RoomTests.laptopA)
      #expect(again.0 == 200 && again.1["rejoined"] == "yes", "the same laptop gets its row back: \(again)")
      #expect(again.1["learner"] == first.1["learner"], "with the same learner key")
      let other = try await join("ann", RoomTests.laptopB)
      #expect(other.0 == 409, "another laptop is refused: \(other)")
      #expect(other.1["message"]?.contains("from another laptop") == true, "\(other)")
      #expect(try await join("bo", "not-hex").0 == 400, "a machine key is hexadecimal")

      let forget = try await Self.request(
        classroom, "POST", "/forget",
        headers: ["Authorization": "Bearer \(classroom.room.instructorToken)", "Content-Type": "application/json"],
        body: Data(#"{"name":"ANN"}"#.utf8))
      #expect(forget.status == 200, "the instructor removes a row")
      #expect(try classroom.room.learners().isEmpty, "ann is gone")
      let unsent = try await Self.request(
        classroom, "POST", "/forget", headers: ["Authorization": "Bearer \(classroom.room.instructorToken)"],
        body: Data(#"{"name":"ann"}"#.utf8))
      #expect(unsent.status == 400, "a forget that is not JSON is refused, as a form from another site would be")
    }
  }

  /// The classroom's log line for a refused request says who and why, and never carries the token.
  /// Raw exchanges that close: the server logs a request before it closes its connection.
  @Test func theLogSaysWhoWasRefusedAndWhy() throws {
    let lines = Mutex<[String]>([])
    let room = try Room(path: ":memory:", stages: RoomTests.stages)
    let classroom = ClassroomServer(
      room: room, configuration: .init(port: 0, log: { entry in lines.withLock { $0.append(entry.line) } }))
    try classroom.start()
    defer { classroom.stop() }
    func send(_ method: String, _ target: String, _ headers: [String: String] = [:], _ body: String = "") {
      var head =
        "\(method) \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.utf8.count)\r\n"
      for (name, value) in headers { head += "\(name): \(value)\r\n" }
      _ = RawExchange.send(Array((head + "\r\n" + body).utf8), port: classroom.port)
    }
    let code = room.joinCode
    send("POST", "/join", ["X-Join-Code": code], #"{"name":"ann","machine":"\#(RoomTests.laptopA)"}"#)
    send("POST", "/join", ["X-Join-Code": code], #"{"name":"ann","machine":"\#(RoomTests.laptopB)"}"#)
    let key = try room.join(code: code, name: "ann", machine: RoomTests.laptopA).key
    send("POST", "/snapshot", ["X-Join-Code": "WRONG", "X-Learner": key], "{}")
    send("GET", "/room.json?token=nope")
    send("GET", "/?token=\(room.instructorToken)")
    send("POST", "/join", ["X-Join-Code": code], #"{"name":"bo\u202Eb\nPOST /join 201 zed: joined"}"#)
    let log = lines.withLock { $0 }
    let expected = [
      "POST /join 201 ann: joined (",
      "POST /join 409 ann: name taken by another machine (",
      "POST /snapshot 401 ann: wrong or missing join code (",
      "GET /room.json?token=… 401 wrong or missing instructor token (",
      "GET /?token=… 303 the instructor's token moved into a cookie (",
      #"POST /join 400 bo\u{202E}b\u{A}POST /join 201 zed: joined: malformed: name is longer than 24 characters ("#,
    ]
    for line in expected {
      #expect(log.contains { $0.hasPrefix(line) }, "the log has \(line)…:\n\(log.joined(separator: "\n"))")
    }
    #expect(!log.joined().contains(room.instructorToken), "the token never reaches the log")
    #expect(
      !log.joined().unicodeScalars.contains { $0.value == 0x202E || $0 == "\n" },
      "a refused name can neither reverse the instructor's terminal nor forge a line")
  }
}

/// A raw exchange over loopback, for what URLSession never sends: writes, then reads until the server closes.
enum RawExchange {
  static func send(_ bytes: [UInt8], port: UInt16) -> String? {
    guard let socket = Socket.connect(toLoopbackPort: port), socket.send(bytes) else { return nil }
    var received: [UInt8] = []
    while socket.waitReadable(milliseconds: 5_000) == .readable, socket.receive(into: &received) > 0 {}
    return String(decoding: received, as: UTF8.self)
  }
}
