import Foundation

/// The room as the instructor's page shows it: one row per learner, one cell
/// per stage, the learners who need someone first, and how many are on each task.
///
/// The page fetches it as JSON every second and draws it; everything it shows
/// is worked out here, so the page's script only puts text in cells.
///
/// **The order of the rows** is who needs help first, and is `Need`'s order:
/// stuck (longest on their task first), then who took a hint in the last
/// `hintMinutes` (longest on their task first), then worrying cells (longest
/// first), then a blocked `course doctor`, then laptops quiet for 10 minutes
/// while on a stage (quietest first), then everyone else by name, so that
/// rows that need nothing stay where they are.
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
    /// On the current stage: the task they are on, its title and for how many
    /// minutes; `nil` when its tests all pass (their own tests may still miss faults).
    public var task: Int?
    public var title: String?
    public var minutes: Int?
    /// On the task past the course's usual time for one of the stage's tasks, or stuck there.
    public var worrying: Bool
    /// On the current stage: how many of its tasks pass (a skipped test passes
    /// nothing), and how many tasks it has, when the stage doc names them.
    public var done: Int?
    public var tasks: Int?

    public init(
      state: String, task: Int? = nil, title: String? = nil, minutes: Int? = nil, worrying: Bool = false,
      done: Int? = nil, tasks: Int? = nil
    ) {
      self.state = state
      self.task = task
      self.title = title
      self.minutes = minutes
      self.worrying = worrying
      self.done = done
      self.tasks = tasks
    }
  }

  /// Why a row is where it is, the most urgent first.
  public enum Need: String, Sendable, Hashable, Encodable, Comparable {
    /// On one failing task past the stuck figure: go there now.
    case stuck
    /// Took a hint in the last `hintMinutes`.
    case hint
    /// On one failing task past the course's usual time for it.
    case worrying
    /// Their last `course doctor` was blocked: their build may fail.
    case blocked
    /// No snapshot for 10 minutes while on a stage.
    case quiet
    /// Nothing to see.
    case none

    private var rank: Int { [.stuck, .hint, .worrying, .blocked, .quiet, .none].firstIndex(of: self) ?? 5 }
    public static func < (lhs: Need, rhs: Need) -> Bool { lhs.rank < rhs.rank }
  }

  /// One learner.
  public struct Row: Sendable, Equatable, Encodable {
    public var name: String
    /// One cell per stage, in the order of `stages`.
    public var cells: [Cell]
    /// The most urgent reason to go to this learner; it orders the rows.
    public var need: Need
    /// On the same failing task past their stage's stuck figure (or `--stuck`).
    public var stuck: Bool
    /// The stuck figure that applies to them, in minutes.
    public var stuckMinutes: Int
    /// Took a hint in the last `hintMinutes`, and how many minutes ago.
    public var tookHint: Bool
    public var hintMinutesAgo: Int?
    /// Minutes on their current failing task, when they are on one.
    public var minutesOnTask: Int?
    /// `passed`, `warnings`, `blocked` or `unknown`: their last `course doctor`.
    public var doctor: String
    /// Hints taken on their current stage; faults their tests caught, of how many.
    public var hints: Int
    public var faults: String?
    /// Seconds since their last snapshot.
    public var quietSeconds: Int
  }

  /// How many learners are on one task, and how many of them are stuck or worrying there.
  public struct TaskCount: Sendable, Equatable, Encodable {
    public var stage: String
    public var task: Int
    /// The task's title from the stage doc; `nil` when the course has no such task.
    public var title: String?
    public var learners: Int
    public var stuck: Int
    public var worrying: Int
    /// The course's figures for the task: worrying past `worryingMinutes`, stuck past `stuckMinutes`.
    public var worryingMinutes: Int?
    public var stuckMinutes: Int

    public init(
      stage: String, task: Int, title: String? = nil, learners: Int, stuck: Int, worrying: Int = 0,
      worryingMinutes: Int? = nil, stuckMinutes: Int = 15
    ) {
      self.stage = stage
      self.task = task
      self.title = title
      self.learners = learners
      self.stuck = stuck
      self.worrying = worrying
      self.worryingMinutes = worryingMinutes
      self.stuckMinutes = stuckMinutes
    }
  }

  public var stages: [Heading]
  /// Who needs help first (see the type's comment).
  public var rows: [Row]
  /// The tasks learners are on, the most crowded first.
  public var onTask: [TaskCount]
  /// Learners whose last `course doctor` did not pass, or who have not run it.
  public var doctorPending: [String]
  /// `--stuck` when the instructor gave it; `nil` when each stage's own figure applies.
  public var stuckMinutes: Int?
  public var hintMinutes: Int

  /// Where no stage states a figure and the instructor gave none.
  public static let defaultStuckMinutes = 15
  /// A laptop silent this long while on a stage is worth a look.
  public static let quietSeconds = 600

  /// Works out the view from the stored learners at `now`.
  init(learners: [Room.Learner], stages: [Room.Stage], now: Date, stuckAfter: Duration?, hintFor: Duration) {
    self.stages = stages.map { Heading(number: $0.number, name: $0.name) }
    stuckMinutes = stuckAfter.map { Int($0.components.seconds / 60) }
    hintMinutes = Int(hintFor.components.seconds / 60)
    let hintSeconds = Double(hintFor.components.seconds)
    let byNumber = Dictionary(stages.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
    let fixedStuck = stuckMinutes
    func stuckFigure(_ stage: String?) -> Int {
      fixedStuck ?? stage.flatMap { byNumber[$0]?.stuckMinutes } ?? Self.defaultStuckMinutes
    }
    var counts: [String: TaskCount] = [:]
    var unsorted: [(row: Row, minutes: Int)] = learners.map { learner in
      let snapshot = learner.snapshot
      let stage = snapshot?.stage.flatMap { byNumber[$0] }
      let minutes = learner.taskSince.map { max(0, Int(now.timeIntervalSince($0) / 60)) }
      let onFailingTask = snapshot.map { $0.task != nil && $0.stage != nil } ?? false
      let stuckAt = stuckFigure(snapshot?.stage)
      let onTask = onFailingTask ? minutes : nil
      let stuck = onTask.map { $0 >= stuckAt } ?? false
      let worrying =
        !stuck && (onTask.map { minutes in stage?.worryingMinutes.map { minutes >= $0 } ?? false } ?? false)
      let hintAgo = learner.hintAt.map { now.timeIntervalSince($0) }
      let tookHint = hintAgo.map { $0 < hintSeconds } ?? false
      let cells = stages.map { column -> Cell in
        if snapshot?.stage == column.number {
          let task = snapshot?.task
          return Cell(
            state: "current", task: task, title: task.flatMap { column.tasks[$0] },
            minutes: task == nil ? nil : minutes, worrying: worrying || stuck, done: snapshot?.passing.count,
            tasks: column.tasks.isEmpty ? nil : column.tasks.count)
        }
        return Cell(state: snapshot?.solved.contains(column.number) == true ? "solved" : "notStarted")
      }
      if let snapshot, let stageNumber = snapshot.stage, let task = snapshot.task {
        let id = "\(stageNumber)/\(task)"
        var count =
          counts[id]
          ?? TaskCount(
            stage: stageNumber, task: task, title: stage?.tasks[task], learners: 0, stuck: 0,
            worryingMinutes: stage?.worryingMinutes, stuckMinutes: stuckAt)
        count.learners += 1
        if stuck { count.stuck += 1 }
        if worrying { count.worrying += 1 }
        counts[id] = count
      }
      let doctor = (snapshot?.doctor ?? .unknown).rawValue
      let quietSeconds = max(0, Int(now.timeIntervalSince(learner.seen)))
      let onAStage = snapshot == nil || snapshot?.stage != nil
      let need: Need =
        if stuck { .stuck } else if tookHint { .hint } else if worrying { .worrying } else if doctor == "blocked" {
          .blocked
        } else if onAStage && quietSeconds >= Self.quietSeconds { .quiet } else { .none }
      let row = Row(
        name: learner.name, cells: cells, need: need, stuck: stuck, stuckMinutes: stuckAt, tookHint: tookHint,
        hintMinutesAgo: tookHint ? hintAgo.map { max(0, Int($0 / 60)) } : nil, minutesOnTask: onTask,
        doctor: doctor, hints: snapshot?.hints ?? 0,
        faults: snapshot.flatMap { snapshot in
          snapshot.faultsTotal.map { "\(snapshot.faultsCaught ?? 0)/\($0)" }
        },
        quietSeconds: quietSeconds)
      return (row, onTask ?? 0)
    }
    unsorted.sort { a, b in
      if a.row.need != b.row.need { return a.row.need < b.row.need }
      let timed: Set<Need> = [.stuck, .hint, .worrying]
      if timed.contains(a.row.need), a.minutes != b.minutes { return a.minutes > b.minutes }
      if a.row.need == .quiet, a.row.quietSeconds != b.row.quietSeconds {
        return a.row.quietSeconds > b.row.quietSeconds
      }
      return Self.byName(a.row.name, b.row.name)
    }
    rows = unsorted.map(\.row)
    onTask = counts.values.sorted {
      ($0.learners, $0.stuck, $1.stage, $1.task) > ($1.learners, $1.stuck, $0.stage, $0.task)
    }
    doctorPending = rows.filter { $0.doctor != Snapshot.Doctor.passed.rawValue && $0.doctor != "warnings" }.map(\.name)
      .sorted(by: Self.byName)
  }

  /// Names in the order a person looks them up: ignoring case, then as typed.
  public static func byName(_ a: String, _ b: String) -> Bool {
    let (lowerA, lowerB) = (a.lowercased(), b.lowercased())
    return lowerA == lowerB ? a < b : lowerA < lowerB
  }

  /// The view as the JSON the page reads.
  public func encoded() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)) ?? Data("{}".utf8)
  }
}
