import Foundation

/// What `course propagate` does with one edited file of Lessons/ or Solutions/:
/// the copies the continuity rule makes of it in later stages, and where they stop.
///
/// The rule (`ContinuityCheck`) says that `Lessons/MM-Name/X` is an unchanged
/// copy of `Solutions/(MM-1)-Name/X` unless `Docs/MM-Name.md` lists `X` under
/// `## Your files`. A solution's file that its doc does not list is the learner's
/// starting file as it was, so `Solutions/MM-Name/X` is a copy of
/// `Lessons/MM-Name/X` when the two are byte-identical. The copies run from the
/// edited file to the first stage where one of these fails: that stage has its own
/// version, which is merged by hand and never overwritten. A capstone starts from
/// an empty folder, so nothing in it is a copy.
///
/// The plan is made from the files as they are, before anything is written, so a
/// dry run and a real run do the same.
struct Propagation: Equatable {
  /// The edited file, relative to the package root.
  var source: String
  /// Its text, which every copy gets.
  var text: Data
  /// Copies that do not hold `text` yet, in stage order: each is overwritten (or created) with it.
  var copies: [String] = []
  /// Copies that hold `text` already.
  var current: [String] = []
  /// Why nothing is copied at all (a learner's file, a capstone's lesson); `nil` when the walk ran.
  var nothingToDo: String?
  /// A copy before `source` that keeps the old text, and where the copies start, when the edit may belong there too.
  var earlier: (copy: String, origin: String)?
  /// Where the copies stop; `nil` when they run to the last stage.
  var stop: Stop?

  /// The stage that ends the copies.
  struct Stop: Equatable {
    /// Why the copies stop there, as a sentence.
    var reason: String
    /// That stage's own versions of the file that differ from `text`: to merge by hand.
    var toMerge: [String]
    /// The file the stage starts from (the copy before it); the edit to carry over is its text before and after.
    var startsFrom: String
    /// `startsFrom`'s text before this run; `nil` when `startsFrom` is the edited file itself.
    var before: Data?
  }

  static func == (lhs: Propagation, rhs: Propagation) -> Bool {
    lhs.source == rhs.source && lhs.text == rhs.text && lhs.copies == rhs.copies && lhs.current == rhs.current
      && lhs.nothingToDo == rhs.nothingToDo && lhs.earlier?.copy == rhs.earlier?.copy
      && lhs.earlier?.origin == rhs.earlier?.origin && lhs.stop == rhs.stop
  }

  /// Plans the copies of `path`, a file under `Lessons/NN-Name/` or `Solutions/NN-Name/`.
  ///
  /// - Throws: `CourseError.usage` when `path` is not such a file, is one of the
  ///   learner's tests, or its stage's doc does not say which files are copies.
  static func plan(_ path: String, in workspace: Workspace) throws -> Propagation {
    let parts = path.split(separator: "/", maxSplits: 2).map(String.init)
    let stages = workspace.stages()
    guard parts.count == 3, ["Lessons", "Solutions"].contains(parts[0]),
      let stage = Stage(folderName: parts[1]), let index = stages.firstIndex(of: stage)
    else {
      throw CourseError.usage(
        "\(path) is not a file of a stage: give a path such as Solutions/02-DataSources/ProductDTO.swift, "
          + "relative to the package root.")
    }
    let file = parts[2]
    guard !file.hasPrefix(FaultCheck.testsFolder + "/") else {
      throw CourseError.usage(
        "\(path) is one of a stage's \"Write the test\" files: each lesson starts them from its own "
          + "placeholders, so no stage copies them.")
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: workspace.url(path).path, isDirectory: &isDirectory),
      !isDirectory.boolValue, let text = try? Data(contentsOf: workspace.url(path))
    else { throw CourseError.usage("\(path) does not exist or is not a file.") }

    var walk = Walk(file: file, stages: stages, workspace: workspace)
    var plan = Propagation(source: path, text: text)
    let next: Int
    if parts[0] == "Solutions" {
      if let copy = walk.earlierCopy(ofSolutionAt: index, was: nil, now: text) {
        plan.earlier = (copy, walk.origin(ofLessonAt: index))
      }
      next = index + 1
    } else if index == 0 {
      plan.nothingToDo =
        "\(path) is in the first stage, which copies no earlier one, and later stages copy "
        + "Solutions/\(stage.folder)/\(file), not this file."
      return plan
    } else {
      switch walk.start(index) {
      case .emptyFolder:
        plan.nothingToDo =
          "\(path) is one of the files a capstone starts from (## \(ContinuityCheck.startHeading) in "
          + "\(stage.doc)): it copies no earlier file, and no later stage copies a lesson's file."
        return plan
      case .noDoc, .unlisted:
        throw CourseError.usage(
          "\(stage.doc) has no `## \(ContinuityCheck.heading)` section, so which files of Lessons/\(stage.folder) "
            + "are copies is unknown; add it first (`swift run course verify` says how).")
      case .previousSolution(let listed) where listed.contains(file):
        plan.nothingToDo =
          "\(path) is the learner's in stage \(stage.number) (\(stage.doc) lists it under ## "
          + "\(ContinuityCheck.heading)): later stages copy Solutions/\(stage.folder)/\(file), not this file."
        return plan
      case .previousSolution:
        // The rule ties this lesson's file to the previous solution's: the edit goes there first.
        let previous = walk.solution(index - 1)
        let before = walk.data(previous)
        plan.add(previous, walk: walk)
        if let copy = walk.earlierCopy(ofSolutionAt: index - 1, was: before, now: text) {
          plan.earlier = (copy, walk.origin(ofLessonAt: index - 1))
        }
        guard plan.addSolution(at: index, lessonBefore: before, walk: &walk) else { return plan }
      }
      next = index + 1
    }
    plan.walkForward(from: next, walk: &walk)
    if plan.copies.isEmpty, plan.current.isEmpty, plan.stop == nil, plan.earlier == nil {
      plan.nothingToDo = "\(path) is in the last stage: no later stage repeats it."
    }
    return plan
  }

  /// Adds `target` to the copies, or to `current` when it holds the text already.
  private mutating func add(_ target: String, walk: Walk) {
    if walk.data(target) == text { current.append(target) } else { copies.append(target) }
  }

  /// Adds `Solutions/<stage at index>/file` when it is a copy of its lesson's file as it was
  /// (`lessonBefore`); otherwise sets `stop`. Returns whether the copies go on.
  private mutating func addSolution(at index: Int, lessonBefore: Data?, walk: inout Walk) -> Bool {
    let stage = walk.stages[index]
    let target = walk.solution(index)
    let lesson = walk.lesson(index)
    guard let current = walk.data(target) else {
      stop = Stop(
        reason: "Solutions/\(stage.folder) has no \(walk.file): the copies end there.", toMerge: [],
        startsFrom: lesson, before: lessonBefore)
      return false
    }
    if current == text || current == lessonBefore {
      add(target, walk: walk)
      return true
    }
    stop = Stop(
      reason: "\(target) differs from \(lesson), though \(stage.doc) does not list it under "
        + "## \(ContinuityCheck.heading): the solution changed it, so it is stage \(stage.number)'s own version.",
      toMerge: [target], startsFrom: lesson, before: lessonBefore)
    return false
  }

  /// Follows the copies from the lesson of the stage at `index` on, until a stage has its own version.
  private mutating func walkForward(from start: Int, walk: inout Walk) {
    var index = start
    while index < walk.stages.count {
      let stage = walk.stages[index]
      let startsFrom = walk.solution(index - 1)
      let before = startsFrom == source ? nil : walk.data(startsFrom)
      let own = [walk.lesson(index), walk.solution(index)].filter { walk.data($0).map { $0 != text } ?? false }
      switch walk.start(index) {
      case .noDoc, .unlisted:
        stop = Stop(
          reason: "\(stage.doc) has no `## \(ContinuityCheck.heading)` section, so which files of "
            + "Lessons/\(stage.folder) are copies is unknown; the copies stop before stage \(stage.number).",
          toMerge: own, startsFrom: startsFrom, before: before)
        return
      case .emptyFolder:
        stop = Stop(
          reason: "Stage \(stage.folder) is a capstone: it starts from an empty folder (## "
            + "\(ContinuityCheck.startHeading) in \(stage.doc)), so none of its files is a copy.",
          toMerge: own, startsFrom: startsFrom, before: before)
        return
      case .previousSolution(let listed) where listed.contains(walk.file):
        let removes = walk.data(walk.lesson(index)) == nil && walk.data(walk.solution(index)) == nil
        stop = Stop(
          reason: "\(stage.doc) lists `\(walk.file)` under ## \(ContinuityCheck.heading): "
            + (removes
              ? "stage \(stage.number) removes it, so the copies end there."
              : "stage \(stage.number) has its own version, the learner's work there."),
          toMerge: own, startsFrom: startsFrom, before: before)
        return
      case .previousSolution:
        let lessonBefore = walk.data(walk.lesson(index))
        add(walk.lesson(index), walk: walk)
        guard addSolution(at: index, lessonBefore: lessonBefore, walk: &walk) else { return }
      }
      index += 1
    }
  }

  /// Reads the stages and their files once for one plan.
  struct Walk {
    let file: String
    let stages: [Stage]
    let workspace: Workspace
    private var starts: [Int: ContinuityCheck.Start] = [:]

    init(file: String, stages: [Stage], workspace: Workspace) {
      self.file = file
      self.stages = stages
      self.workspace = workspace
    }

    func lesson(_ index: Int) -> String { "Lessons/\(stages[index].folder)/\(file)" }
    func solution(_ index: Int) -> String { "Solutions/\(stages[index].folder)/\(file)" }
    func data(_ path: String) -> Data? { try? Data(contentsOf: workspace.url(path)) }

    mutating func start(_ index: Int) -> ContinuityCheck.Start {
      if let known = starts[index] { return known }
      let start = ContinuityCheck.start(of: stages[index], in: workspace)
      starts[index] = start
      return start
    }

    /// Whether the rule makes the lesson's file at `index` a copy of the previous solution's.
    mutating func lessonIsCopy(_ index: Int) -> Bool {
      guard index > 0, case .previousSolution(let listed) = start(index) else { return false }
      return !listed.contains(file)
    }

    /// The lesson's file at `index`, when it is a copy by the rule that the solution's
    /// file there repeated and the edit does not reach: it does not hold `now`, and
    /// it held what the solution's file `was` (`nil`: that text is gone, the edit made in place).
    mutating func earlierCopy(ofSolutionAt index: Int, was: Data?, now: Data) -> String? {
      guard lessonIsCopy(index), let lesson = data(lesson(index)), lesson != now else { return nil }
      if let was, lesson != was { return nil }
      return self.lesson(index)
    }

    /// Where the copies that end in the lesson's file at `index` start: the first solution's file they repeat.
    mutating func origin(ofLessonAt index: Int) -> String {
      var index = index
      while lessonIsCopy(index - 1), let lesson = data(lesson(index - 1)), lesson == data(solution(index - 1)) {
        index -= 1
      }
      return solution(index - 1)
    }
  }
}
