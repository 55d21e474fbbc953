import Foundation

/// The room as the instructor's page shows it: one row per learner, one cell
/// per stage, the learners who need someone now, and how many are on each task.
///
/// The page fetches it as JSON every second and draws it; everything it shows
/// is worked out here, so the page's script only puts text in cells.
public struct RoomView: Sendable, Equatable, Encodable {
  /// A stage's column heading.
  public struct Heading: Sendable, Equatable, Encodable {
    public var number: String
    public var name: String
  }

  /// One learner on one stage.
  public struct Cell: Sendable, Equatable, Encodable {
    /// `solved`, `current` (the stage they are on) or `notStarted`.
    public var state: String
    /// On the current stage: the task they are on and for how many minutes;
    /// `nil` when its tests all pass (their own tests may still miss faults).
    public var task: Int?
    public var minutes: Int?
  }

  /// One learner.
  public struct Row: Sendable, Equatable, Encodable {
    public var name: String
    /// One cell per stage, in the order of `stages`.
    public var cells: [Cell]
    /// On the same failing task for `stuckMinutes` or longer.
    public var stuck: Bool
    /// Took a hint in the last `hintMinutes`.
    public var tookHint: Bool
    /// `passed`, `warnings`, `blocked` or `unknown`: their last `course doctor`.
    public var doctor: String
    /// Hints taken on their current stage; faults their tests caught, of how many.
    public var hints: Int
    public var faults: String?
    /// Seconds since their last snapshot.
    public var quietSeconds: Int
  }

  /// How many learners are on one task, and how many of them are stuck there.
  public struct TaskCount: Sendable, Equatable, Encodable {
    public var stage: String
    public var task: Int
    public var learners: Int
    public var stuck: Int
  }

  public var stages: [Heading]
  public var rows: [Row]
  /// The tasks learners are on, the most crowded first.
  public var onTask: [TaskCount]
  /// Learners whose last `course doctor` did not pass, or who have not run it.
  public var doctorPending: [String]
  public var stuckMinutes: Int
  public var hintMinutes: Int

  /// Works out the view from the stored learners at `now`.
  init(
    learners: [Room.Learner], stages: [(number: String, name: String)], now: Date, stuckAfter: Duration,
    hintFor: Duration
  ) {
    self.stages = stages.map { Heading(number: $0.number, name: $0.name) }
    stuckMinutes = Int(stuckAfter.components.seconds / 60)
    hintMinutes = Int(hintFor.components.seconds / 60)
    let stuckSeconds = Double(stuckAfter.components.seconds)
    let hintSeconds = Double(hintFor.components.seconds)
    var counts: [String: TaskCount] = [:]
    rows = learners.map { learner in
      let snapshot = learner.snapshot
      let minutes = learner.taskSince.map { max(0, Int(now.timeIntervalSince($0) / 60)) }
      let onFailingTask = snapshot.map { $0.task != nil && $0.stage != nil } ?? false
      let stuck =
        onFailingTask && (learner.taskSince.map { now.timeIntervalSince($0) >= stuckSeconds } ?? false)
      let cells = stages.map { stage -> Cell in
        if snapshot?.stage == stage.number {
          return Cell(state: "current", task: snapshot?.task, minutes: snapshot?.task == nil ? nil : minutes)
        }
        return Cell(state: snapshot?.solved.contains(stage.number) == true ? "solved" : "notStarted")
      }
      if let snapshot, let stage = snapshot.stage, let task = snapshot.task {
        var count = counts["\(stage)/\(task)"] ?? TaskCount(stage: stage, task: task, learners: 0, stuck: 0)
        count.learners += 1
        if stuck { count.stuck += 1 }
        counts["\(stage)/\(task)"] = count
      }
      return Row(
        name: learner.name, cells: cells, stuck: stuck,
        tookHint: learner.hintAt.map { now.timeIntervalSince($0) < hintSeconds } ?? false,
        doctor: (snapshot?.doctor ?? .unknown).rawValue, hints: snapshot?.hints ?? 0,
        faults: snapshot.flatMap { snapshot in
          snapshot.faultsTotal.map { "\(snapshot.faultsCaught ?? 0)/\($0)" }
        },
        quietSeconds: max(0, Int(now.timeIntervalSince(learner.seen))))
    }
    onTask = counts.values.sorted {
      ($0.learners, $1.stage, $1.task) > ($1.learners, $0.stage, $0.task)
    }
    doctorPending = rows.filter { $0.doctor != Snapshot.Doctor.passed.rawValue && $0.doctor != "warnings" }.map(\.name)
  }

  /// The view as the JSON the page reads.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }
}
