import CatalogServer
import Classroom
import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// `course classroom` for the instructor; `course join` and `course leave` for a
/// learner, and the snapshot their commands send in between.
extension Course {
  // MARK: The instructor

  /// `course classroom`: serves the room until Ctrl-C, then returns 0 once the
  /// port is closed; with `--forget NAME`, removes one learner and returns.
  func classroom(_ options: ClassroomOptions) -> Int32 {
    signal(SIGPIPE, SIG_IGN)
    let path = options.room.hasPrefix("/") ? options.room : package.workspace.url(options.room).path
    try? FileManager.default.createDirectory(
      at: URL(fileURLWithPath: path).deletingLastPathComponent(), withIntermediateDirectories: true)
    if options.fresh {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    let room: Room
    do {
      room = try Room(path: path, stages: classroomStages())
    } catch {
      say(style.red("\(error)") + " Start a new room with `\(invocation) classroom --new`.")
      return 1
    }
    if let name = options.forget { return forget(name, in: room, file: options.room) }
    let style = style
    let write = write
    let server = ClassroomServer(
      room: room,
      configuration: ClassroomServer.Configuration(
        port: options.port, address: options.address, stuckAfter: options.stuckMinutes.map { .seconds($0 * 60) },
        log: { entry in
          // Snapshots and page refreshes that succeed are the normal hum of the room; the rest is news.
          let target = entry.request.target
          guard
            entry.request.status.map({ $0 >= 300 }) ?? true || target.hasPrefix("/join") || target.hasPrefix("/leave")
              || target.hasPrefix("/forget")
          else { return }
          write(Self.classroomLogLine(entry, style: style) + "\n")
        }))
    do {
      try server.start()
    } catch {
      say(style.red("\(error)"))
      return 1
    }
    say(banner(server, options: options, path: path, learners: (try? room.learners().count) ?? 0))
    while !interruption.isRequested { pause(0.1) }
    say("\nStopping…")
    server.stop()
    say("Stopped. The room is kept in \(options.room); `\(invocation) classroom` opens it again.")
    return 0
  }

  /// `course classroom --forget NAME`: works on the room's file, whether or not a classroom serves it.
  private func forget(_ name: String, in room: Room, file: String) -> Int32 {
    do {
      let forgotten = try room.forget(name: name)
      say(
        "Removed \(forgotten) from the room in \(file): their row is off the page. Their laptop's next command "
          + "hears that it is not in the room; `\(invocation) join` brings them back.")
      return 0
    } catch {
      let names = ((try? room.learners()) ?? []).map(\.name).sorted { RoomView.byName($0, $1) }
      say(
        style.red("\(error.description)")
          + (names.isEmpty ? " The room is empty." : " In the room: \(names.joined(separator: ", ")).")
      )
      return 1
    }
  }

  /// One log line, the status coloured on a terminal:
  /// `POST /join 409 ann: name taken by another machine (286 B, 0.5 ms)`.
  static func classroomLogLine(_ entry: ClassroomLogEntry, style: Style) -> String {
    let line = entry.line
    guard let status = entry.request.status, style.colored else {
      return entry.request.status == nil ? style.red(line) : line
    }
    let text = " \(status) "
    let painted =
      switch status {
      case 200..<300: style.green(text)
      case 300..<500: style.yellow(text)
      default: style.red(text)
      }
    guard let range = line.range(of: text) else { return line }
    return line.replacingCharacters(in: range, with: painted)
  }

  /// The stages as the classroom shows them: each task's title from the stage's
  /// doc, and the course's time per task, the stage's estimate in README's table
  /// (`≈ 100 min`) divided by its number of tasks.
  func classroomStages() -> [Room.Stage] {
    let workspace = package.workspace
    let readme = (try? String(contentsOf: workspace.url("README.md"), encoding: .utf8)) ?? ""
    return workspace.stages().map { stage in
      let tasks = workspace.tasks(of: stage)
      let estimate = Self.stageEstimate(stage, readme: readme)
      return Room.Stage(
        number: stage.number, name: stage.name,
        tasks: Dictionary(tasks.map { ($0.number, $0.title) }, uniquingKeysWith: { first, _ in first }),
        minutesPerTask: estimate.flatMap { tasks.isEmpty ? nil : Double($0) / Double(tasks.count) })
    }
  }

  /// The stage's estimate in minutes from its row of README's table of stages:
  /// `| 02 DataSources | … | ≈ 100 min | ready |`; `nil` without one.
  static func stageEstimate(_ stage: Stage, readme: String) -> Int? {
    for line in readme.split(separator: "\n") where line.hasPrefix("| \(stage.number) \(stage.name) ") {
      let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
      for cell in cells where cell.hasPrefix("≈ ") && cell.hasSuffix(" min") {
        if let minutes = Int(cell.dropFirst(2).dropLast(4)) { return minutes }
      }
    }
    return nil
  }

  private func banner(_ server: ClassroomServer, options: ClassroomOptions, path: String, learners: Int) -> String {
    let local = options.address == "0.0.0.0"
    let hosts = local ? ClassroomServer.networkAddresses() : [options.address]
    let host = hosts.first ?? "127.0.0.1"
    let reach =
      options.address == "127.0.0.1"
      ? "this laptop only; add --address 0.0.0.0 to let the room's network in"
      : "reachable from the room's network at \(hosts.joined(separator: ", "))"
    return """
      \(style.bold("Classroom on http://\(host):\(server.port)")) (\(reach))

        Your page:     \(server.pageURL(host: local ? "127.0.0.1" : host))
                       (the token in it is yours; the first visit keeps it in the browser
                       and takes it off the address bar, so the projector never shows it)
        Join code:     \(style.bold(server.room.joinCode))
        Learners run:  \(Launcher.swiftRun) join http://\(host):\(server.port) \(server.room.joinCode) --name NICKNAME
        Room file:     \(options.room) (\(learners) learner\(learners == 1 ? "" : "s") so far)

      Joins, leaves and refused requests are logged below, with who and why. Ctrl-C stops;
      the room stays in its file. `\(invocation) classroom --forget NAME` removes one learner.

      """
  }

  // MARK: A learner

  /// `course join URL CODE --name NICKNAME`: joins with this laptop's machine
  /// key, so joining again under the same name from this laptop takes the row back.
  func join(url: URL, code: String, name: String) -> Int32 {
    let machine = MachineKey.load()
    switch ClassroomClient().join(url, code: code, name: name, machine: machine) {
    case .failure(.unreachable(let reason)):
      say(
        style.red("Cannot reach the classroom at \(url.absoluteString): \(reason).")
          + " Check the address with your instructor, and that this laptop is on the room's network.")
      return 1
    case .failure(.refused(_, let message)):
      say(style.red("The classroom refused: \(message)"))
      return 1
    case .success(let joined):
      let membership = ClassroomMembership(url: url, code: code, learner: joined.learner, name: joined.name)
      membership.save(in: package.workspace)
      if joined.rejoined {
        say(
          style.green("Joined the classroom at \(url.absoluteString) as \(joined.name) again:")
            + " this laptop had that name, so your row, with your progress so far, is yours again.")
      } else {
        say(style.green("Joined the classroom at \(url.absoluteString) as \(joined.name)."))
      }
      say(
        "From now on `course`, `course check`, `course hint` and each rerun of `course watch` tell the "
          + "instructor your stage, the tasks passing and failing, the task you are on and for how long, the "
          + "hints you took, the faults your tests caught and your `course doctor` result; never your code, "
          + "file paths, user name or anything about this laptop. `\(invocation) leave` stops it.")
      if machine == nil {
        say(
          style.dim(
            "(No machine key could be kept in \(MachineKey.file.deletingLastPathComponent().path): joining again "
              + "under this name from this laptop will be refused, so keep this clone.)"))
      }
      if DoctorReport.lastResult(in: package.workspace) == .unknown {
        say(style.dim("Run `\(invocation) doctor` too: the instructor sees who has not passed it."))
      }
      return 0
    }
  }

  /// `course leave`.
  func leave() -> Int32 {
    guard let membership = ClassroomMembership.read(in: package.workspace) else {
      say("This laptop is in no classroom; nothing is sent.")
      return 0
    }
    let outcome = ClassroomClient().leave(membership)
    ClassroomMembership.remove(in: package.workspace)
    if case .answered(200, _) = outcome {
      say("Left the classroom at \(membership.url.absoluteString); nothing more is sent.")
    } else {
      say(
        "Left the classroom at \(membership.url.absoluteString) on this laptop; nothing more is sent. "
          + style.dim("(The classroom did not hear it, so your row stays on the instructor's page.)"))
    }
    return 0
  }

  // MARK: The snapshot

  /// Tells the classroom, when this laptop joined one, what a command found;
  /// never fails the command, and waits for the classroom at most a second.
  /// `quietly` says nothing of a refusal (`course doctor --json` prints JSON alone).
  func tellClassroom(_ finding: ClassroomMembership.Finding, quietly: Bool = false) {
    let say: (String) -> Void = quietly ? { _ in } : { self.say($0) }
    let workspace = package.workspace
    guard var membership = ClassroomMembership.read(in: workspace) else { return }
    let stages = workspace.stages()
    let ledger = HintLedger(of: workspace)
    let snapshot = membership.snapshot(
      after: finding, hints: { number in stages.first { $0.number == number }.map { ledger.total(stage: $0) } ?? 0 },
      doctor: DoctorReport.lastResult(in: workspace), now: Date())
    let wasUnsent = membership.unsent
    switch ClassroomClient().send(snapshot, as: membership) {
    case .answered(let status, _) where (200..<300).contains(status):
      membership.unsent = false
    case .answered(404, _):
      membership.unsent = true
      say(
        style.dim(
          "The classroom at \(membership.url.absoluteString) no longer knows this laptop: join again with "
            + "`\(invocation) join URL CODE --name \(membership.name)`, or `\(invocation) leave`."))
    case .answered(let status, let body):
      membership.unsent = true
      let message = (try? JSONDecoder().decode([String: String].self, from: body))?["message"]
      if status != 429, !wasUnsent {
        say(style.dim("The classroom refused this snapshot: \(message ?? "status \(status)")"))
      }
    case .unreachable:
      membership.unsent = true
      if !wasUnsent {
        say(
          style.dim(
            "The classroom at \(membership.url.absoluteString) did not answer; your next command sends the latest."))
      }
    }
    membership.save(in: workspace)
  }

  /// Keeps the faults the learner's tests caught, for the next snapshot, when this laptop joined a classroom.
  func noteFaultsCaught(_ stage: Stage, caught: Int, total: Int) {
    guard var membership = ClassroomMembership.read(in: package.workspace) else { return }
    membership.faults[stage.number] = [caught, total]
    membership.save(in: package.workspace)
  }
}
