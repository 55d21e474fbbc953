import Foundation

/// `course watch [NN]`: `check` again after every change to the lesson, until it passes or Ctrl-C.
extension Course {
  /// Seconds between two looks at the lesson's files.
  static let watchInterval = 0.5

  func watch(_ number: String?) throws -> Int32 {
    let start: (Stage, SuiteResult)?
    do {
      start = try firstRun(number)
    } catch CourseError.interrupted {
      return stoppedWatching(nil)
    }
    guard let (stage, first) = start else {
      say(style.green("Every stage is solved.") + " Name a stage to watch: `\(invocation) watch 01`.")
      return 0
    }
    let folder = "Lessons/\(stage.folder)"
    var snapshot = package.workspace.fileStamps(under: folder)
    var run = 1
    do {
      if try show(stage, first, run: run, changed: []) { return 0 }
      while true {
        if interruption.isRequested { throw CourseError.interrupted }
        pause(Self.watchInterval)
        let now = package.workspace.fileStamps(under: folder)
        guard now != snapshot else { continue }
        let changed = Set(now.keys).union(snapshot.keys).filter { now[$0] != snapshot[$0] }.sorted()
        snapshot = now
        run += 1
        do {
          try build(only: stage)
        } catch let error as CourseError where error != .interrupted {
          clearScreen()
          say(style.red("\(error)"))
          say(style.dim("Watching \(folder); save a file to try again, Ctrl-C to stop."))
          continue
        }
        if try show(stage, try runLesson(stage), run: run, changed: changed) { return 0 }
      }
    } catch CourseError.interrupted {
      return stoppedWatching(folder)
    }
  }

  /// The first run: while the package does not build, shows the compiler's
  /// errors and waits for a change to the stage's lesson (to any lesson, when no
  /// stage was named, since the stage to watch is the first whose suite fails).
  ///
  /// - Throws: `CourseError.usage` for a stage that does not exist, `interrupted` on Ctrl-C.
  private func firstRun(_ number: String?) throws -> (Stage, SuiteResult)? {
    let folder = try number.map { "Lessons/\(try package.workspace.stage(numbered: $0).folder)" } ?? "Lessons"
    var snapshot = package.workspace.fileStamps(under: folder)
    while true {
      do {
        return try lessonToWorkOn(number)
      } catch let error as CourseError {
        guard case .buildFailed = error else { throw error }
        progressLine(nil)
        clearScreen()
        say(style.red("\(error)"))
        say(style.dim("Watching \(folder); save a file to try again, Ctrl-C to stop."))
      }
      while true {
        if interruption.isRequested { throw CourseError.interrupted }
        pause(Self.watchInterval)
        let now = package.workspace.fileStamps(under: folder)
        if now != snapshot {
          snapshot = now
          break
        }
      }
    }
  }

  /// Shows one run, and the fault check of the learner's own tests when the
  /// stage has "Write the test" tasks; true when the stage passes and those
  /// tests catch every fault, after saying what comes next.
  ///
  /// - Throws: `CourseError.interrupted` when the user stopped `course`.
  private func show(_ stage: Stage, _ result: SuiteResult, run: Int, changed: [String]) throws -> Bool {
    clearScreen()
    let after = changed.isEmpty ? "" : ", after a change to \(changed.joined(separator: ", "))"
    say(style.dim("course watch: run \(run)\(after)"))
    let report = report(stage, result)
    say(report.lines(style: style).joined(separator: "\n"))
    let testsCatchEveryFault = try checkYourTests(stage) ?? true
    say("")
    // After the run's result is on screen.
    defer { tellClassroom(.watch(report, testsDone: testsCatchEveryFault)) }
    if result.allPassed, testsCatchEveryFault {
      say(style.green(style.bold("Well done: stage \(stage.number), \(stage.name), passes every test.")))
      say(nextStep(report))
      return true
    }
    say(nextStep(report, watching: true, testsDone: testsCatchEveryFault))
    say(style.dim("Watching Lessons/\(stage.folder) for changes. Ctrl-C stops."))
    return false
  }

  private func clearScreen() {
    if isTerminal { write("\u{1B}[2J\u{1B}[H") }
  }

  private func stoppedWatching(_ folder: String?) -> Int32 {
    progressLine(nil)
    say("Stopped watching\(folder.map { " \($0)" } ?? ""). Anything `course` had started has been stopped.")
    return 0
  }
}

extension Workspace {
  /// A file's size and modification time: what `watch` compares to see a change.
  struct FileStamp: Equatable {
    var size: Int
    var modified: Date?
  }

  /// The stamp of every file below a folder, by path relative to the package root.
  func fileStamps(under folder: String) -> [String: FileStamp] {
    var stamps: [String: FileStamp] = [:]
    for file in files(under: folder) {
      let path = "\(folder)/\(file)"
      let attributes = try? FileManager.default.attributesOfItem(atPath: url(path).path)
      stamps[path] = FileStamp(
        size: (attributes?[.size] as? NSNumber)?.intValue ?? 0, modified: attributes?[.modificationDate] as? Date)
    }
    return stamps
  }
}
