import Foundation
import Synchronization
import Testing

@testable import Classroom

/// The room's rules, in process, with a clock the test moves.
struct RoomTests {
  static let stages = [("01", "ViewCallsURLSession"), ("02", "DataSources"), ("03", "DependencyInjection")]

  /// A clock that moves only when told.
  final class Clock: Sendable {
    private let time = Mutex(Date(timeIntervalSince1970: 1_800_000_000))
    var now: Date { time.withLock { $0 } }
    func advance(_ seconds: Double) { time.withLock { $0 = $0.addingTimeInterval(seconds) } }
  }

  static func snapshot(
    _ event: Snapshot.Event = .check, stage: String? = "02", task: Int? = 3, seconds: Int = 0, hints: Int = 0,
    solved: [String] = ["01"], doctor: Snapshot.Doctor = .passed
  ) -> Data {
    Snapshot(
      event: event, stage: stage, task: task, secondsOnTask: seconds, passing: [1, 2], failing: task.map { [$0] } ?? [],
      solved: solved, hints: hints, doctor: doctor
    ).encoded()
  }

  static func room(path: String = ":memory:", clock: Clock = Clock(), limits: Room.Limits = Room.Limits()) throws
    -> Room
  {
    try Room(path: path, stages: stages, limits: limits, now: { clock.now })
  }

  @Test func joinsWithTheCodeOnly() throws {
    let room = try Self.room()
    #expect(throws: ClassroomError.wrongCode, "no code") { try room.join(code: nil, name: "ann") }
    #expect(throws: ClassroomError.wrongCode, "a wrong code") { try room.join(code: "AAAA-AAAA", name: "ann") }
    let key = try room.join(code: room.joinCode.lowercased(), name: "ann")
    #expect(key.count == 32, "a learner key of 128 bits")
    #expect(try room.learners().map(\.name) == ["ann"])
    #expect(room.joinCode != room.instructorToken)
  }

  @Test(arguments: [
    "", "   ", String(repeating: "x", count: 25), "ann\u{0007}", "tab\tname",
    // Format characters: a right-to-left override (the name would display reversed), an isolate, a zero-width joiner.
    "\u{202E}nna", "ann\u{2066}x", "a\u{200D}nn",
  ])
  func refusesANicknameThatBreaksTheRules(name: String) throws {
    let room = try Self.room()
    #expect(throws: ClassroomError.self, "\(name.debugDescription) is refused") {
      try room.join(code: room.joinCode, name: name)
    }
    #expect(try room.learners().isEmpty, "a refused join adds nobody")
  }

  /// The docs' example nicknames join as they are written.
  @Test(arguments: ["ann", "Ann2", "Zoë", "李雷", "María José"])
  func acceptsTheDocsNicknames(name: String) throws {
    let room = try Self.room()
    _ = try room.join(code: room.joinCode, name: name)
    #expect(try room.learners().count == 1, "\(name) joins")
  }

  @Test func keepsANicknameWithMarkupAsText() throws {
    let room = try Self.room()
    _ = try room.join(code: room.joinCode, name: "<b>Bob</b> & co")
    #expect(
      try room.learners().map(\.name) == ["<b>Bob</b> & co"],
      "the room keeps the characters; the page shows them as text")
  }

  @Test func boundsNamesAndLearners() throws {
    var limits = Room.Limits()
    limits.maxLearners = 2
    let room = try Self.room(limits: limits)
    _ = try room.join(code: room.joinCode, name: "ann")
    #expect(throws: ClassroomError.nameTaken("ANN"), "names are unique, whatever their case") {
      try room.join(code: room.joinCode, name: "ANN")
    }
    _ = try room.join(code: room.joinCode, name: "bo")
    #expect(throws: ClassroomError.roomFull(limit: 2)) { try room.join(code: room.joinCode, name: "cy") }
  }

  @Test func aSnapshotNeedsTheCodeAndAKnownLearnerAndAWellFormedBody() throws {
    let room = try Self.room()
    let key = try room.join(code: room.joinCode, name: "ann")
    try room.post(code: room.joinCode, learner: key, body: Self.snapshot())
    let before = try room.learners()
    #expect(throws: ClassroomError.wrongCode) {
      try room.post(code: "nope", learner: key, body: Self.snapshot(task: 1))
    }
    #expect(throws: ClassroomError.unknownLearner) {
      try room.post(code: room.joinCode, learner: "0000", body: Self.snapshot(task: 1))
    }
    #expect(throws: ClassroomError.self) { try room.post(code: room.joinCode, learner: key, body: Data("{".utf8)) }
    #expect(try room.learners() == before, "refused posts change nothing")
  }

  @Test func slowsALearnerWhoPostsTooOften() throws {
    let clock = Clock()
    let room = try Self.room(clock: clock)
    let key = try room.join(code: room.joinCode, name: "ann")
    let other = try room.join(code: room.joinCode, name: "bo")
    for _ in 0..<5 { try room.post(code: room.joinCode, learner: key, body: Self.snapshot()) }
    #expect(throws: ClassroomError.tooOften(seconds: 1), "the sixth post in the same second") {
      try room.post(code: room.joinCode, learner: key, body: Self.snapshot())
    }
    try room.post(code: room.joinCode, learner: other, body: Self.snapshot())  // another learner is not slowed
    clock.advance(1)
    try room.post(code: room.joinCode, learner: key, body: Self.snapshot())
  }

  @Test func marksALearnerStuckOnOneTaskPastTheThresholdAndOneWhoTookAHint() throws {
    let clock = Clock()
    let room = try Self.room(clock: clock)
    let ann = try room.join(code: room.joinCode, name: "ann")
    let bo = try room.join(code: room.joinCode, name: "bo")
    let cy = try room.join(code: room.joinCode, name: "cy")
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot(task: 3, seconds: 16 * 60))
    try room.post(code: room.joinCode, learner: bo, body: Self.snapshot(task: 3, seconds: 60))
    try room.post(code: room.joinCode, learner: cy, body: Self.snapshot(.hint, task: 2, hints: 1, doctor: .blocked))
    let view = try room.view(stuckAfter: .seconds(15 * 60), hintFor: .seconds(5 * 60))
    let rows = Dictionary(uniqueKeysWithValues: view.rows.map { ($0.name, $0) })
    #expect(rows["ann"]?.stuck == true, "16 minutes on Task 3 is past 15")
    #expect(rows["bo"]?.stuck == false && rows["bo"]?.tookHint == false, "1 minute is not stuck")
    #expect(rows["cy"]?.tookHint == true, "a hint just now")
    #expect(
      rows["ann"]?.cells
        == [
          RoomView.Cell(state: "solved"), RoomView.Cell(state: "current", task: 3, minutes: 16),
          RoomView.Cell(state: "notStarted"),
        ], "solved, the current task with its minutes, not started")
    #expect(
      view.onTask == [
        RoomView.TaskCount(stage: "02", task: 3, learners: 2, stuck: 1),
        RoomView.TaskCount(stage: "02", task: 2, learners: 1, stuck: 0),
      ], "the crowded task first")
    #expect(view.doctorPending == ["cy"], "who has not passed course doctor")

    clock.advance(6 * 60)
    let later = try room.view(stuckAfter: .seconds(15 * 60), hintFor: .seconds(5 * 60))
    #expect(later.rows.first { $0.name == "bo" }?.cells[1].minutes == 7, "minutes keep counting between snapshots")
    #expect(later.rows.first { $0.name == "cy" }?.tookHint == false, "a hint 6 minutes ago is no longer news")
  }

  @Test func aHintCountThatGrowsMarksTheLearnerEvenWhenTheHintSnapshotWasLost() throws {
    let room = try Self.room()
    let ann = try room.join(code: room.joinCode, name: "ann")
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot(hints: 0))
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot(.check, hints: 2))
    #expect(try room.learners().first?.hintAt != nil)
  }

  @Test func leavingTakesTheLearnerOut() throws {
    let room = try Self.room()
    let ann = try room.join(code: room.joinCode, name: "ann")
    try room.leave(code: room.joinCode, learner: ann)
    #expect(try room.learners().isEmpty)
    #expect(throws: ClassroomError.unknownLearner) {
      try room.post(code: room.joinCode, learner: ann, body: Self.snapshot())
    }
  }

  @Test func aRoomReopenedFromItsFileHasEveryLearnerTheirLastSnapshotAndTheSameCodes() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("room-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    let clock = Clock()
    var first: Room? = try Self.room(path: path, clock: clock)
    let code = try #require(first?.joinCode)
    let token = try #require(first?.instructorToken)
    let ann = try #require(try first?.join(code: code, name: "ann"))
    try first?.post(code: code, learner: ann, body: Self.snapshot(task: 4, seconds: 120))
    let before = try #require(try first?.learners())
    first = nil
    let again = try Self.room(path: path, clock: clock)
    #expect(again.joinCode == code && again.instructorToken == token, "learners need not join again")
    #expect(try again.learners() == before, "every learner with their last snapshot")
    try again.post(code: code, learner: ann, body: Self.snapshot(task: 5))
    #expect(try again.learners().first?.snapshot?.task == 5, "the next post lands")
  }

  @Test func refusesAFileThatIsNotARoom() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-\(UUID().uuidString).sqlite").path
    defer { try? FileManager.default.removeItem(atPath: path) }
    try Data("not a database, just text that is long enough to be read as a header".utf8).write(
      to: URL(fileURLWithPath: path))
    #expect(throws: ClassroomError.self) { try Self.room(path: path) }
  }
}
