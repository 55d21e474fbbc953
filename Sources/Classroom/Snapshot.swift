import Foundation

/// What a learner's `course` tells the instructor's classroom after a command:
/// where they are and how it goes, and nothing else.
///
/// It carries stage and task numbers, counts and a few fixed words, never
/// code, file paths, user names or machine details: the fields below are all
/// there is, and `Snapshot.decode` refuses any other field, so no client can
/// slip more in.
public struct Snapshot: Sendable, Equatable, Codable {
  /// The command that sent it.
  public enum Event: String, Sendable, Codable, CaseIterable {
    /// `course` or `course status`.
    case status
    /// `course check NN`.
    case check
    /// `course hint NN`.
    case hint
    /// A rerun of `course watch NN`.
    case watch
    /// `course join`.
    case join
    /// `course doctor`: only the doctor's result changed.
    case doctor
  }

  /// What the learner's last `course doctor` found.
  public enum Doctor: String, Sendable, Codable, CaseIterable {
    /// Every check passed.
    case passed
    /// Nothing blocks the course, some checks warned.
    case warnings
    /// Something blocks the course on this laptop.
    case blocked
    /// `course doctor` has not run here.
    case unknown
  }

  /// The command that sent it.
  public var event: Event
  /// The stage being worked on, `04`; `nil` once every stage is solved.
  public var stage: String?
  /// The task being worked on, the first that fails; `nil` when none fails.
  public var task: Int?
  /// How long the learner has been on `task`, in seconds: a duration, so the
  /// laptop's clock never has to agree with the instructor's.
  public var secondsOnTask: Int
  /// The tasks of `stage` whose tests pass, and those whose tests fail.
  public var passing: [Int]
  public var failing: [Int]
  /// Every stage solved so far, as far as this laptop has seen.
  public var solved: [String]
  /// Hints taken on `stage`.
  public var hints: Int
  /// Of the named faults of `stage`'s "Write the test" tasks, how many the
  /// learner's tests caught at their last check, and how many there are; `nil`
  /// before a check, or for a stage without such tasks.
  public var faultsCaught: Int?
  public var faultsTotal: Int?
  /// What the learner's last `course doctor` found.
  public var doctor: Doctor

  /// Makes a snapshot; `decode` checks one that came over the network.
  public init(
    event: Event, stage: String?, task: Int?, secondsOnTask: Int = 0, passing: [Int] = [], failing: [Int] = [],
    solved: [String] = [], hints: Int = 0, faultsCaught: Int? = nil, faultsTotal: Int? = nil,
    doctor: Doctor = .unknown
  ) {
    self.event = event
    self.stage = stage
    self.task = task
    self.secondsOnTask = secondsOnTask
    self.passing = passing
    self.failing = failing
    self.solved = solved
    self.hints = hints
    self.faultsCaught = faultsCaught
    self.faultsTotal = faultsTotal
    self.doctor = doctor
  }

  // MARK: Limits

  /// The largest snapshot body read, in bytes; a real one is about 180.
  public static let maxBytes = 2_048
  /// The most tasks a stage has, and the most stages.
  static let maxTasks = 99
  static let maxStages = 99
  /// A week: longer on one task is a laptop left open, not a learner.
  static let maxSecondsOnTask = 7 * 24 * 3_600
  static let maxCount = 10_000

  // MARK: The boundary

  /// The one mapper from bytes off the network to a snapshot.
  ///
  /// - Throws: `ClassroomError.tooLarge` past `maxBytes`, and
  ///   `ClassroomError.malformed` naming the field it refused: the body is not a
  ///   JSON object, a field is missing, of the wrong type or out of range, or
  ///   there is a field the snapshot does not have.
  public static func decode(_ data: Data) throws(ClassroomError) -> Snapshot {
    guard data.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
    let snapshot: Snapshot
    do {
      snapshot = try JSONDecoder().decode(Snapshot.self, from: data)
    } catch let error as ClassroomError {
      throw error
    } catch {
      throw .malformed("the body is not a JSON object")
    }
    return snapshot
  }

  /// Two digits, `04`.
  static func isStageNumber(_ text: String) -> Bool {
    text.utf8.count == 2 && text.utf8.allSatisfy { (48...57).contains($0) }
  }

  /// Any field name, so that decoding sees the ones a snapshot does not have.
  private struct Key: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
  }

  /// Reads the JSON object field by field, throwing `ClassroomError` for the
  /// first field it refuses; `decode` is the way in for bytes off the network.
  public init(from decoder: any Decoder) throws {
    let fields: Set<String> = [
      "event", "stage", "task", "secondsOnTask", "passing", "failing", "solved", "hints", "faultsCaught",
      "faultsTotal", "doctor",
    ]

    let container = try decoder.container(keyedBy: Key.self)
    if let extra = container.allKeys.map(\.stringValue).sorted().first(where: { !fields.contains($0) }) {
      throw ClassroomError.malformed("\(extra) is not a field of a snapshot")
    }
    func read<Value: Decodable>(_ name: String, _ type: Value.Type, _ rule: String) throws -> Value? {
      do {
        return try container.decodeIfPresent(type, forKey: Key(stringValue: name))
      } catch {
        throw ClassroomError.malformed("\(name) is \(rule)")
      }
    }
    func required<Value: Decodable>(_ name: String, _ type: Value.Type, _ rule: String) throws -> Value {
      guard let value = try read(name, type, rule) else { throw ClassroomError.malformed("\(name) is missing") }
      return value
    }
    func integer(_ name: String, in range: ClosedRange<Int>) throws -> Int? {
      let rule = "a whole number from \(range.lowerBound) to \(range.upperBound)"
      guard let value = try read(name, Int.self, rule) else { return nil }
      guard range.contains(value) else { throw ClassroomError.malformed("\(name) is \(rule)") }
      return value
    }
    func requiredInteger(_ name: String, in range: ClosedRange<Int>) throws -> Int {
      guard let value = try integer(name, in: range) else { throw ClassroomError.malformed("\(name) is missing") }
      return value
    }
    func tasks(_ name: String) throws -> [Int] {
      let rule = "a list of at most \(Snapshot.maxTasks) task numbers from 1 to \(Snapshot.maxTasks)"
      let list = try required(name, [Int].self, rule)
      guard list.count <= Snapshot.maxTasks, list.allSatisfy({ (1...Snapshot.maxTasks).contains($0) }) else {
        throw ClassroomError.malformed("\(name) is \(rule)")
      }
      return Array(Set(list)).sorted()
    }
    let events = Event.allCases.map(\.rawValue).joined(separator: ", ")
    let doctors = Doctor.allCases.map(\.rawValue).joined(separator: ", ")
    let stageRule = "a stage number of two digits, such as 04"
    let stage = try read("stage", String.self, stageRule)
    if let stage, !Snapshot.isStageNumber(stage) { throw ClassroomError.malformed("stage is \(stageRule)") }
    let solvedRule = "a list of at most \(Snapshot.maxStages) stage numbers of two digits"
    let solved = try required("solved", [String].self, solvedRule)
    guard solved.count <= Snapshot.maxStages, solved.allSatisfy(Snapshot.isStageNumber) else {
      throw ClassroomError.malformed("solved is \(solvedRule)")
    }
    self.init(
      event: try required("event", Event.self, "one of \(events)"),
      stage: stage,
      task: try integer("task", in: 1...Snapshot.maxTasks),
      secondsOnTask: try requiredInteger("secondsOnTask", in: 0...Snapshot.maxSecondsOnTask),
      passing: try tasks("passing"),
      failing: try tasks("failing"),
      solved: Array(Set(solved)).sorted(),
      hints: try requiredInteger("hints", in: 0...Snapshot.maxCount),
      faultsCaught: try integer("faultsCaught", in: 0...Snapshot.maxCount),
      faultsTotal: try integer("faultsTotal", in: 0...Snapshot.maxCount),
      doctor: try required("doctor", Doctor.self, "one of \(doctors)"))
    if task != nil && stage == nil { throw ClassroomError.malformed("task needs a stage") }
    if let caught = faultsCaught, caught > faultsTotal ?? -1 {
      throw ClassroomError.malformed("faultsCaught needs a faultsTotal at least as large")
    }
  }

  /// The snapshot as its JSON, keys sorted: what the client sends and the room file keeps.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    // Encoding a value of strings, numbers and lists cannot fail.
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }
}
