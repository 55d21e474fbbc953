import Classroom
import Foundation
import Synchronization
import Testing

@testable import CourseKit

/// `course classroom`, `course join`, `course leave`, and the snapshot a joined
/// laptop's commands send, over real loopback sockets to an in-process classroom.
struct ClassroomCommandTests {
  /// A lesson run in which Task 1's test fails and Task 2's pass.
  static let taskOneFails = CannedRun(
    status: 1, console: "",
    events: EventStreamFixture.run(
      tests: CannedRun.tests, failing: ["a()"],
      comments: ["a()": #"Task 1 "Pass a" (Docs/01-Intro.md): expected 1, got 0"#]))

  /// Starts a classroom for the stages of a temporary workspace on a free port.
  static func withClassroom(_ body: (ClassroomServer) async throws -> Void) async throws {
    let room = try Room(path: ":memory:", stages: [("01", "Intro")])
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
    try classroom.start()
    defer { classroom.stop() }
    try await body(classroom)
  }

  static func join(_ folder: borrowing TemporaryWorkspace, _ classroom: ClassroomServer, name: String = "ann") {
    let joined = folder.run(.join(url: classroom.baseURL, code: classroom.room.joinCode, name: name))
    #expect(joined.status == 0, "joining with the code works: \(joined.output)")
  }

  @Test(.timeLimit(.minutes(1))) func aJoinedLaptopsCheckSendsItsStageTasksAndTimeButNothingElse() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      Self.join(folder, classroom)
      #expect(try folder.read(".build/course/classroom.json").contains(classroom.room.joinCode))
      let checked = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.taskOneFails))
      #expect(checked.status == 1, "the check's own verdict, whatever the classroom says")
      let learner = try #require(try classroom.room.learners().first)
      #expect(learner.name == "ann")
      let snapshot = try #require(learner.snapshot, "the check sent a snapshot")
      #expect(snapshot.event == .check && snapshot.stage == "01" && snapshot.task == 1, "\(snapshot)")
      #expect(snapshot.failing == [1] && snapshot.passing == [2], "Task 1 fails, Task 2 passes: \(snapshot)")
      #expect(snapshot.doctor == .unknown, "no doctor run yet")
      let sent = String(decoding: snapshot.encoded(), as: UTF8.self)
      #expect(!sent.contains(folder.workspace.root.path) && !sent.contains("/"), "no path: \(sent)")
      #expect(!sent.contains(ProcessInfo.processInfo.hostName), "no machine name: \(sent)")
    }
  }

  /// Task 1 fails, and Task 2's test is skipped until Task 1 is done: Task 2 passes nothing.
  @Test(.timeLimit(.minutes(1))) func aSkippedTestIsNeitherPassingNorFailing() async throws {
    let run = CannedRun(
      status: 1, console: "",
      events: EventStreamFixture.run(
        tests: CannedRun.tests, failing: ["a()"], skipped: ["b()"],
        comments: [
          "a()": #"Task 1 "Pass a" (Docs/01-Intro.md): expected 1, got 0"#,
          "b()": #"Task 1 "Pass a" (Docs/01-Intro.md): skipped until a() passes"#,
        ]))
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      Self.join(folder, classroom)
      _ = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: run))
      let snapshot = try #require(try classroom.room.learners().first?.snapshot, "the check sent a snapshot")
      #expect(
        snapshot.failing == [1] && snapshot.passing.isEmpty, "b() was skipped, so Task 2 passes nothing: \(snapshot)")
    }
  }

  /// A learner who joined and then passed `course doctor` leaves "Not passed" at once, not at the next check.
  @Test(.timeLimit(.minutes(1))) func aDoctorRunTellsAJoinedRoom() async throws {
    try await Self.withClassroom { classroom in
      let folder = try DoctorTests.workspace()
      Self.join(folder, classroom)
      let (status, output) = try DoctorTests.run(folder, environment: try DoctorTests.laptop())
      #expect(status == 0, "\(output)")
      let snapshot = try #require(try classroom.room.learners().first?.snapshot, "the doctor sent a snapshot")
      #expect(snapshot.event == .doctor && snapshot.doctor == .passed, "\(snapshot)")
    }
  }

  @Test(.timeLimit(.minutes(1))) func aHintIsSentAndMarksTheLearner() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      Self.join(folder, classroom)
      _ = folder.run(.hint(stage: "01", task: 2))
      let learner = try #require(try classroom.room.learners().first)
      #expect(learner.snapshot?.event == .hint && learner.snapshot?.task == 2 && learner.snapshot?.hints == 1)
      let view = try classroom.room.view(stuckAfter: .seconds(900), hintFor: .seconds(300))
      #expect(view.rows.first?.tookHint == true, "the page marks a learner who just took a hint")
    }
  }

  @Test(.timeLimit(.minutes(1))) func statusSendsEveryStageSolvedSoFar() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      Self.join(folder, classroom)
      _ = folder.run(.status, answers: CannedRun.answer(lesson: .allPass))
      let snapshot = try #require(try classroom.room.learners().first?.snapshot)
      #expect(snapshot.event == .status && snapshot.solved == ["01"] && snapshot.stage == nil, "\(snapshot)")
    }
  }

  @Test(.timeLimit(.minutes(1))) func anUnreachableClassroomNeverFailsTheCommandAndTheNextRunSendsTheLatest()
    async throws
  {
    let folder = try TemporaryWorkspace()
    var port: UInt16 = 0
    var code = ""
    let room = try Room(path: ":memory:", stages: [("01", "Intro")])
    do {
      let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
      try classroom.start()
      port = classroom.port
      code = room.joinCode
      Self.join(folder, classroom)
      classroom.stop()
    }
    let first = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.taskOneFails))
    #expect(first.status == 1, "the check's verdict, not the classroom's")
    #expect(first.output.contains("did not answer; your next command sends the latest"), "\(first.output)")
    let second = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.taskOneFails))
    #expect(!second.output.contains("did not answer"), "said once, not on every run:\n\(second.output)")

    // The instructor restarts on the same port: the next command's snapshot lands.
    let again = ClassroomServer(room: room, configuration: .init(port: port))
    try again.start()
    defer { again.stop() }
    _ = folder.run(.hint(stage: "01", task: 1))
    #expect(try room.learners().first?.snapshot?.event == .hint, "the latest arrives once the classroom is back")
    #expect(room.joinCode == code)
  }

  @Test(.timeLimit(.minutes(1))) func leaveTakesTheRowOutAndStopsSending() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      Self.join(folder, classroom)
      let left = folder.run(.leave)
      #expect(left.status == 0 && left.output.contains("nothing more is sent"), "\(left.output)")
      #expect(try classroom.room.learners().isEmpty, "the instructor's page drops the row")
      #expect(!folder.workspace.exists(".build/course/classroom.json"))
      _ = folder.run(.hint(stage: "01", task: 1))
      #expect(try classroom.room.learners().isEmpty, "nothing is sent after leaving")
    }
  }

  @Test(.timeLimit(.minutes(1))) func aWrongCodeIsRefusedWithTheClassroomsReason() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      let refused = folder.run(.join(url: classroom.baseURL, code: "WRONG", name: "ann"))
      #expect(refused.status == 1)
      #expect(refused.output.contains("Wrong or missing join code"), "\(refused.output)")
      #expect(!folder.workspace.exists(".build/course/classroom.json"), "a refused join leaves nothing behind")
    }
  }

  /// Starts `course classroom` on a free port, joins it from a second workspace,
  /// and stops it the way Ctrl-C does.
  @Test(.timeLimit(.minutes(1))) func classroomServesUntilInterruptedAndPrintsTheCodeAndThePage() async throws {
    let folder = try TemporaryWorkspace()
    let output = Mutex("")
    let started = AsyncStream.makeStream(of: String.self)
    let interruption = Interruption()
    let course = Course(
      package: SwiftPackage(workspace: folder.workspace, runner: StubCommandRunner(answers: CannedRun.answer())),
      style: Style(colored: false), isTerminal: false,
      write: { text in
        output.withLock { $0 += text }
        if text.contains("Join code:") { started.continuation.yield(text) }
      },
      interruption: interruption, pause: { Thread.sleep(forTimeInterval: $0 / 10) })
    var options = ClassroomOptions()
    options.port = 0
    // On a thread of its own: the classroom blocks until interrupted, and must not hold one of the few
    // cooperative threads the other tests need.
    let ended = AsyncStream.makeStream(of: Int32.self)
    Thread { [options] in
      ended.continuation.yield(course.classroom(options))
      ended.continuation.finish()
    }.start()
    var banners = started.stream.makeAsyncIterator()
    let banner = try #require(await banners.next())
    let words = banner.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
    let joinAt = try #require(words.firstIndex(of: "join"))
    let url = try #require(URL(string: words[joinAt + 1]))
    let code = words[joinAt + 2]
    #expect(banner.contains("?token="), "the instructor's page, with its token:\n\(banner)")
    let learner = try TemporaryWorkspace()
    let joined = learner.run(.join(url: url, code: code, name: "<b>bo</b>"))
    #expect(joined.status == 0, "\(joined.output)")
    interruption.request()
    var statuses = ended.stream.makeAsyncIterator()
    #expect(await statuses.next() == 0, "Ctrl-C ends the classroom with status 0")
    #expect(output.withLock { $0 }.contains("POST /join 201"), "a join is logged")
    #expect(folder.workspace.exists(".build/course/classroom.sqlite"), "the room is kept in its file")
  }

  @Test func parsesItsCommands() throws {
    var options = ClassroomOptions()
    options.port = 9000
    options.address = "0.0.0.0"
    options.stuckMinutes = 20
    #expect(
      try Command.parse(["classroom", "--port", "9000", "--address=0.0.0.0", "--stuck", "20"]) == .classroom(options))
    let url = try #require(URL(string: "http://192.168.1.20:8090"))
    #expect(
      try Command.parse(["join", "http://192.168.1.20:8090", "KQ7M-3XPA", "--name", "ann"])
        == .join(url: url, code: "KQ7M-3XPA", name: "ann"))
    #expect(
      try Command.parse(["join", "--name=ann", "http://192.168.1.20:8090", "KQ7M-3XPA"])
        == .join(url: url, code: "KQ7M-3XPA", name: "ann"))
    #expect(try Command.parse(["leave"]) == .leave)
    for bad in [
      ["classroom", "--address", "localhost"], ["classroom", "--stuck", "0"], ["join", "http://x:1", "CODE"],
      ["join", "ftp://x", "CODE", "--name", "a"], ["join", "http://x:1"], ["leave", "now"],
    ] {
      #expect(throws: CourseError.self, "\(bad) is a usage error") { try Command.parse(bad) }
    }
    for topic in ["classroom", "join", "leave"] {
      #expect(try Command.parse([topic, "--help"]) == .help(topic: topic))
    }
    #expect(Command.helpText("classroom").contains("--address A"))
    #expect(Command.helpText(nil).contains("\n  classroom "), "the overview lists classroom")
  }
}
