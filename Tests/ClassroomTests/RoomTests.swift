import Foundation
import Synchronization
import Testing

@testable import Classroom

/// The room's rules, in process, with a clock the test moves.
struct RoomTests {
  static let stages = [
    Room.Stage(number: "01", name: "ViewCallsURLSession"), Room.Stage(number: "02", name: "DataSources"),
    Room.Stage(number: "03", name: "DependencyInjection"),
  ]

  /// Stage 02 as the course states it: 8 tasks in 100 minutes, so 12.5 minutes a task.
  static let titled = [
    Room.Stage(number: "01", name: "ViewCallsURLSession", tasks: [1: "Use the injected session"], minutesPerTask: 9),
    Room.Stage(
      number: "02", name: "DataSources",
      tasks: [
        2: "Turn every failure into a RemoteDataSourceError", 3: "Read the API's timestamps, and only real ones",
      ],
      minutesPerTask: 12.5),
  ]

  /// Two laptops' machine keys.
  static let laptopA = String(repeating: "a1", count: 32)
  static let laptopB = String(repeating: "b2", count: 32)

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
    let key = try room.join(code: room.joinCode.lowercased(), name: "ann").key
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
    #expect(throws: ClassroomError.nameTaken("ann"), "names are unique, whatever their case") {
      try room.join(code: room.joinCode, name: "ANN")
    }
    _ = try room.join(code: room.joinCode, name: "bo")
    #expect(throws: ClassroomError.roomFull(limit: 2)) { try room.join(code: room.joinCode, name: "cy") }
  }

  @Test func aSnapshotNeedsTheCodeAndAKnownLearnerAndAWellFormedBody() throws {
    let room = try Self.room()
    let key = try room.join(code: room.joinCode, name: "ann").key
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
    let key = try room.join(code: room.joinCode, name: "ann").key
    let other = try room.join(code: room.joinCode, name: "bo").key
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
    let ann = try room.join(code: room.joinCode, name: "ann").key
    let bo = try room.join(code: room.joinCode, name: "bo").key
    let cy = try room.join(code: room.joinCode, name: "cy").key
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
          RoomView.Cell(state: "solved"),
          RoomView.Cell(state: "current", task: 3, minutes: 16, worrying: true, done: 2),
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
    let ann = try room.join(code: room.joinCode, name: "ann").key
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot(hints: 0))
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot(.check, hints: 2))
    #expect(try room.learners().first?.hintAt != nil)
  }

  @Test func leavingTakesTheLearnerOut() throws {
    let room = try Self.room()
    let ann = try room.join(code: room.joinCode, name: "ann").key
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
    let ann = try #require(try first?.join(code: code, name: "ann").key)
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

  // MARK: A laptop keeps its row

  @Test func theSameLaptopJoiningAgainUnderItsNameGetsItsRowBackAndAnotherLaptopIsRefused() throws {
    let clock = Clock()
    let room = try Self.room(clock: clock)
    let first = try room.join(code: room.joinCode, name: "ann", machine: Self.laptopA)
    #expect(!first.rejoined, "a first join is a new row")
    try room.post(code: room.joinCode, learner: first.key, body: Self.snapshot(task: 3, seconds: 600))
    let before = try #require(try room.learners().first)

    clock.advance(60)
    let again = try room.join(code: room.joinCode, name: "Ann", machine: Self.laptopA)
    #expect(again.rejoined && again.key == first.key, "the same laptop takes its row back, whatever the case: \(again)")
    #expect(again.name == "ann", "under the name the room kept")
    let after = try room.learners()
    #expect(after.count == 1, "no second row: \(after.map(\.name))")
    #expect(after.first?.snapshot == before.snapshot, "the row keeps its last snapshot")
    #expect(after.first?.taskSince == before.taskSince, "and the time on its task")

    #expect(throws: ClassroomError.nameTaken("ann"), "another laptop under a taken name is refused") {
      try room.join(code: room.joinCode, name: "ann", machine: Self.laptopB)
    }
    #expect(throws: ClassroomError.nameTaken("ann"), "so is a join that proves no laptop") {
      try room.join(code: room.joinCode, name: "ann")
    }
    let bo = try room.join(code: room.joinCode, name: "bo", machine: Self.laptopB)
    #expect(!bo.rejoined && bo.key != first.key, "another laptop under a free name joins as itself")
  }

  @Test func theRoomKeepsTheDigestOfAMachineKeyNeverTheKey() throws {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("room-\(UUID().uuidString).sqlite").path
    defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    do {
      let room = try Self.room(path: path)
      _ = try room.join(code: room.joinCode, name: "ann", machine: Self.laptopA)
    }
    let bytes =
      try Data(contentsOf: URL(fileURLWithPath: path))
      + ((try? Data(contentsOf: URL(fileURLWithPath: path + "-wal"))) ?? Data())
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(!text.contains(Self.laptopA), "the machine key itself is not in the room's file")
    #expect(text.contains(SHA256.hex(Array(Self.laptopA.utf8))), "its SHA-256 digest is")
    let reopened = try Self.room(path: path)
    #expect(
      try reopened.join(code: reopened.joinCode, name: "ann", machine: Self.laptopA).rejoined,
      "a restarted classroom still knows the laptop")
  }

  @Test(arguments: [
    ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
    ),
    (String(repeating: "a", count: 1_000), "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"),
  ])
  func sha256GivesTheStandardsDigests(message: String, digest: String) {
    #expect(SHA256.hex(Array(message.utf8)) == digest, "SHA-256 of \(message.prefix(20))…")
  }

  @Test func forgettingANameTakesThatLearnerOutAndNobodyElse() throws {
    let room = try Self.room()
    let ann = try room.join(code: room.joinCode, name: "ann", machine: Self.laptopA).key
    _ = try room.join(code: room.joinCode, name: "bo")
    try room.post(code: room.joinCode, learner: ann, body: Self.snapshot())
    #expect(try room.forget(name: " ANN ") == "ann", "found whatever its case and spaces")
    #expect(try room.learners().map(\.name) == ["bo"], "bo stays")
    #expect(throws: ClassroomError.unknownLearner, "ann's laptop is told it is not in the room") {
      try room.post(code: room.joinCode, learner: ann, body: Self.snapshot())
    }
    #expect(throws: ClassroomError.noSuchLearner("zed")) { try room.forget(name: "zed") }
    #expect(!(try room.join(code: room.joinCode, name: "ann", machine: Self.laptopA).rejoined), "ann joins anew")
  }

  // MARK: The page triages

  @Test func rowsComeInTheOrderOfWhoNeedsHelpFirst() throws {
    let clock = Clock()
    let room = try Self.room(clock: clock)
    func join(_ name: String, _ body: Data?) throws {
      let key = try room.join(code: room.joinCode, name: name).key
      if let body { try room.post(code: room.joinCode, learner: key, body: body) }
    }
    try join("quiet-quin", Self.snapshot(task: 1, seconds: 0))
    clock.advance(11 * 60)
    try join("adam", Self.snapshot(stage: nil, task: nil, solved: ["01", "02", "03"]))
    try join("zoe", Self.snapshot(task: 2, seconds: 60))
    try join("stuck-short", Self.snapshot(task: 3, seconds: 16 * 60))
    try join("hinted", Self.snapshot(.hint, task: 2, seconds: 120, hints: 1))
    try join("stuck-long", Self.snapshot(task: 3, seconds: 40 * 60))
    try join("blocked", Self.snapshot(task: 1, seconds: 60, doctor: .blocked))
    try join("Beth", nil)
    let view = try room.view(stuckAfter: .seconds(15 * 60), hintFor: .seconds(5 * 60))
    #expect(
      view.rows.map(\.name) == ["stuck-long", "stuck-short", "hinted", "blocked", "quiet-quin", "adam", "Beth", "zoe"],
      "stuck longest first, then the hint, the blocked doctor, the quiet laptop, then by name: \(view.rows.map(\.name))"
    )
    #expect(
      view.rows.map(\.need) == [.stuck, .stuck, .hint, .blocked, .quiet, .none, .none, .none],
      "\(view.rows.map(\.need))")
  }

  @Test func cellsAndTheSummaryNameTheTaskAndTurnWorryingPastTheCoursesFigure() throws {
    let clock = Clock()
    let room = try Room(path: ":memory:", stages: Self.titled, now: { clock.now })
    #expect(Self.titled[1].worryingMinutes == 13 && Self.titled[1].stuckMinutes == 25, "12.5 min a task: 13, and 25")
    #expect(Self.titled[0].worryingMinutes == 9 && Self.titled[0].stuckMinutes == 20, "9 min a task: 9, and 20")
    func join(_ name: String, task: Int, minutes: Int) throws {
      let key = try room.join(code: room.joinCode, name: name).key
      try room.post(code: room.joinCode, learner: key, body: Self.snapshot(task: task, seconds: minutes * 60))
    }
    try join("ann", task: 3, minutes: 12)
    try join("bo", task: 3, minutes: 14)
    try join("cy", task: 3, minutes: 26)
    try join("dee", task: 2, minutes: 5)
    let view = try room.view(hintFor: .seconds(5 * 60))
    let rows = Dictionary(uniqueKeysWithValues: view.rows.map { ($0.name, $0) })
    let title = "Read the API's timestamps, and only real ones"
    #expect(
      rows["ann"]?.cells[1] == RoomView.Cell(state: "current", task: 3, title: title, minutes: 12, done: 2, tasks: 2),
      "12 minutes is within the course's 13: \(String(describing: rows["ann"]?.cells[1]))")
    #expect(rows["bo"]?.cells[1].worrying == true && rows["bo"]?.need == .worrying, "14 minutes is past 13")
    #expect(
      rows["cy"]?.stuck == true && rows["cy"]?.stuckMinutes == 25, "26 minutes is past twice 12.5, rounded up to 25")
    #expect(view.rows.map(\.name) == ["cy", "bo", "ann", "dee"], "\(view.rows.map(\.name))")
    #expect(
      view.onTask.first
        == RoomView.TaskCount(
          stage: "02", task: 3, title: title, learners: 3, stuck: 1, worrying: 1, worryingMinutes: 13, stuckMinutes: 25),
      "the summary names the task and its figures: \(String(describing: view.onTask.first))")
    #expect(view.onTask.last?.title == "Turn every failure into a RemoteDataSourceError")
    #expect(view.stuckMinutes == nil, "each stage's own figure applies")

    let fixed = try room.view(stuckAfter: .seconds(10 * 60), hintFor: .seconds(5 * 60))
    #expect(
      fixed.rows.filter(\.stuck).map(\.name) == ["cy", "bo", "ann"], "--stuck 10 applies to every task")
  }
}
