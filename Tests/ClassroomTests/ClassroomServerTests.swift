import FakeCatalog
import Foundation
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
    clock: RoomTests.Clock = RoomTests.Clock(), _ body: (ClassroomServer) async throws -> Void
  ) async throws {
    let room = try Room(path: ":memory:", stages: RoomTests.stages, now: { clock.now })
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
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
      let page = try await Self.request(classroom, "GET", "/?token=\(token)")
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
        method: "GET", target: "/?token=\(room.instructorToken)", minorVersion: 1, fields: [], contentLength: 0),
      Data())
    #expect(String(decoding: page.body, as: UTF8.self).contains("<script src=\"/classroom.js\">"))
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
