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
    let room = try Room(path: ":memory:", stages: [Room.Stage(number: "01", name: "Intro")])
    let classroom = ClassroomServer(room: room, configuration: .init(port: 0))
    try classroom.start()
    defer { classroom.stop() }
    try await body(classroom)
  }

  static func join(_ folder: borrowing TemporaryWorkspace, _ classroom: ClassroomServer, name: String = "ann") {
    let joined = MachineKey.$folder.withValue(laptop()) {
      folder.run(.join(url: classroom.baseURL, code: classroom.room.joinCode, name: name))
    }
    #expect(joined.status == 0, "joining with the code works: \(joined.output)")
  }

  /// A laptop's configuration folder, where its machine key is kept: one per laptop a test plays.
  static func laptop() -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("laptop-\(UUID().uuidString)")
  }

  /// A stage doc whose task sections name their tests, as the course's docs do.
  static let namedTests =
    "# 01-Intro\n\n## Tasks\n\n### Task 1: Pass a\n\nMake `a` pass.\n\n### Task 2: Pass b\n\nMake `b` pass.\n"

  @Test(.timeLimit(.minutes(1))) func aJoinedLaptopsCheckSendsItsStageTasksAndTimeButNothingElse() async throws {
    try await Self.withClassroom { classroom in
      let folder = try TemporaryWorkspace()
      try folder.write("Docs/01-Intro.md", Self.namedTests)
      Self.join(folder, classroom)
      #expect(try folder.read(".build/course/classroom.json").contains(classroom.room.joinCode))
      let checked = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.taskOneFails))
      #expect(checked.status == 1, "the check's own verdict, whatever the classroom says")
      let learner = try #require(try classroom.room.learners().first)
      #expect(learner.name == "ann")
      let snapshot = try #require(learner.snapshot, "the check sent a snapshot")
      #expect(snapshot.event == .check && snapshot.stage == "01" && snapshot.task == 1, "\(snapshot)")
      #expect(
        snapshot.failing == [1] && snapshot.passing == [2], "Task 1 fails, Task 2's named test passed: \(snapshot)")
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

  /// As the browser check met lesson 01: Task 1 fails, Task 2's test is skipped, and Task 3's section names
  /// no test. c() passes, but no section names it, so nothing proves Task 3 (the snapshot said [3] before).
  @Test(.timeLimit(.minutes(1))) func aTaskWhoseTestsNeverRanPassesNothing() async throws {
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
      try folder.write(
        "Docs/01-Intro.md",
        "# 01-Intro\n\n## Tasks\n\n### Task 1: Pass a\n\nMake `a` pass.\n\n### Task 2: Pass b\n\nMake `b` pass.\n\n"
          + "### Task 3: Pass c\n\nNo test is named here.\n")
      Self.join(folder, classroom)
      _ = folder.run(.check(stage: "01"), answers: CannedRun.answer(lesson: run))
      let snapshot = try #require(try classroom.room.learners().first?.snapshot, "the check sent a snapshot")
      #expect(
        snapshot.failing == [1] && snapshot.passing.isEmpty,
        "Task 3 names no test that passed, so it passes nothing: \(snapshot)")
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
    let room = try Room(path: ":memory:", stages: [Room.Stage(number: "01", name: "Intro")])
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
      let refused = MachineKey.$folder.withValue(Self.laptop()) {
        folder.run(.join(url: classroom.baseURL, code: "WRONG", name: "ann"))
      }
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
    let joined = MachineKey.$folder.withValue(Self.laptop()) {
      learner.run(.join(url: url, code: code, name: "<b>bo</b>"))
    }
    #expect(joined.status == 0, "\(joined.output)")
    // The server logs a request just after answering it: wait for the line (5 s at most), not a fixed time.
    for _ in 0..<500 where !output.withLock({ $0.contains("POST /join") }) {
      try await Task.sleep(for: .milliseconds(10))
    }
    interruption.request()
    var statuses = ended.stream.makeAsyncIterator()
    #expect(await statuses.next() == 0, "Ctrl-C ends the classroom with status 0")
    #expect(output.withLock { $0 }.contains("POST /join 201"), "a join is logged")
    #expect(folder.workspace.exists(".build/course/classroom.sqlite"), "the room is kept in its file")
  }

  /// A second clone on the same laptop joins under the same name and gets the row, with its progress,
  /// back; another laptop under that name is refused, and nothing is left on the learner's side.
  @Test(.timeLimit(.minutes(1))) func aLaptopThatJoinsAgainFromAFreshCloneKeepsItsRow() async throws {
    try await Self.withClassroom { classroom in
      let laptop = Self.laptop()
      let first = try TemporaryWorkspace()
      let code = classroom.room.joinCode
      MachineKey.$folder.withValue(laptop) {
        let joined = first.run(.join(url: classroom.baseURL, code: code, name: "ann"))
        #expect(joined.status == 0, "\(joined.output)")
        _ = first.run(.check(stage: "01"), answers: CannedRun.answer(lesson: Self.taskOneFails))
      }
      let key = try String(contentsOf: laptop.appendingPathComponent("machine-key"), encoding: .utf8)
      #expect(
        !(try first.read(".build/course/classroom.json")).contains(key.trimmingCharacters(in: .newlines)),
        "the key stays outside the clone")
      let progress = try #require(try classroom.room.learners().first?.snapshot)

      let fresh = try TemporaryWorkspace()
      let again = MachineKey.$folder.withValue(laptop) {
        fresh.run(.join(url: classroom.baseURL, code: code, name: "ann"))
      }
      #expect(
        again.status == 0 && again.output.contains("as ann again"),
        "the same laptop takes its row back:\n\(again.output)")
      let learners = try classroom.room.learners()
      #expect(learners.count == 1 && learners.first?.snapshot == progress, "one row, with its progress: \(learners)")
      MachineKey.$folder.withValue(laptop) { _ = fresh.run(.hint(stage: "01", task: 2)) }
      #expect(
        try classroom.room.learners().first?.snapshot?.event == .hint, "the fresh clone's snapshots land on that row")

      let stranger = try TemporaryWorkspace()
      let refused = MachineKey.$folder.withValue(Self.laptop()) {
        stranger.run(.join(url: classroom.baseURL, code: code, name: "ANN"))
      }
      #expect(refused.status == 1, "another laptop under a taken name is refused")
      #expect(refused.output.contains("already called ann, from another laptop"), "\(refused.output)")
      #expect(!stranger.workspace.exists(".build/course/classroom.json"), "and keeps no membership")
    }
  }

  /// `course classroom --forget NAME` removes one learner from the room's file, running classroom or not.
  @Test func forgetRemovesOneLearnerFromTheRoomsFile() throws {
    let folder = try TemporaryWorkspace()
    let path = folder.workspace.url(".build/course/room.sqlite").path
    try FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    let room = try Room(path: path, stages: [Room.Stage(number: "01", name: "Intro")])
    let ann = try room.join(code: room.joinCode, name: "ann").key
    _ = try room.join(code: room.joinCode, name: "bo")
    var options = ClassroomOptions()
    options.room = ".build/course/room.sqlite"
    options.forget = "Ann"
    let forgot = folder.run(.classroom(options))
    #expect(forgot.status == 0 && forgot.output.contains("Removed ann from the room"), "\(forgot.output)")
    #expect(try room.learners().map(\.name) == ["bo"], "the classroom that serves the file sees it at once")
    #expect(throws: ClassroomError.unknownLearner) {
      try room.post(code: room.joinCode, learner: ann, body: Snapshot(event: .check, stage: "01", task: 1).encoded())
    }
    options.forget = "zed"
    let unknown = folder.run(.classroom(options))
    #expect(unknown.status == 1, "\(unknown.output)")
    #expect(unknown.output.contains("Nobody in the room is called zed. In the room: bo."), "\(unknown.output)")
  }

  @Test func theStagesShowEachTasksTitleAndTheCoursesTimeForIt() throws {
    let folder = try TemporaryWorkspace(stages: ["01-Intro", "02-Next"])
    try folder.write(
      "README.md",
      "| Stage | What | Time | Status |\n|---|---|---|---|\n| 01 Intro | The start | ≈ 45 min | ready |\n")
    let course = Course(
      package: SwiftPackage(workspace: folder.workspace, runner: StubCommandRunner(answers: CannedRun.answer())),
      style: Style(colored: false), isTerminal: false, write: { _ in })
    let stages = course.classroomStages()
    #expect(stages.map(\.number) == ["01", "02"])
    #expect(stages[0].tasks == [1: "Pass a", 2: "Pass b"], "titles from the doc's task headings")
    #expect(stages[0].minutesPerTask == 22.5, "45 min over 2 tasks")
    #expect(stages[0].worryingMinutes == 23 && stages[0].stuckMinutes == 45, "\(stages[0])")
    #expect(stages[1].minutesPerTask == nil, "no estimate in README: no figure, and --stuck's default applies")
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
    var forget = ClassroomOptions()
    forget.forget = "ann"
    #expect(try Command.parse(["classroom", "--forget", "ann"]) == .classroom(forget))
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
