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

  /// `course classroom`: serves the room until Ctrl-C, then returns 0 once the port is closed.
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
      room = try Room(path: path, stages: package.workspace.stages().map { ($0.number, $0.name) })
    } catch {
      say(style.red("\(error)") + " Start a new room with `\(invocation) classroom --new`.")
      return 1
    }
    let style = style
    let write = write
    let server = ClassroomServer(
      room: room,
      configuration: ClassroomServer.Configuration(
        port: options.port, address: options.address, stuckAfter: .seconds(options.stuckMinutes * 60),
        log: { entry in
          // Snapshots and page refreshes that succeed are the normal hum of the room; the rest is news.
          guard
            entry.status.map({ $0 >= 300 }) ?? true || entry.target.hasPrefix("/join")
              || entry.target.hasPrefix("/leave")
          else { return }
          write(Self.logLine(entry, style: style) + "\n")
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
                       (the token in it is yours; do not show it on the projector)
        Join code:     \(style.bold(server.room.joinCode))
        Learners run:  \(Launcher.swiftRun) join http://\(host):\(server.port) \(server.room.joinCode) --name NICKNAME
        Room file:     \(options.room) (\(learners) learner\(learners == 1 ? "" : "s") so far)

      Refused requests, joins and leaves are logged below. Ctrl-C stops; the room stays in its file.

      """
  }

  // MARK: A learner

  /// `course join URL CODE --name NICKNAME`.
  func join(url: URL, code: String, name: String) -> Int32 {
    switch ClassroomClient().join(url, code: code, name: name) {
    case .failure(.unreachable(let reason)):
      say(
        style.red("Cannot reach the classroom at \(url.absoluteString): \(reason).")
          + " Check the address with your instructor, and that this laptop is on the room's network.")
      return 1
    case .failure(.refused(_, let message)):
      say(style.red("The classroom refused: \(message)"))
      return 1
    case .success(let learner):
      let membership = ClassroomMembership(url: url, code: code, learner: learner, name: name)
      membership.save(in: package.workspace)
      say(style.green("Joined the classroom at \(url.absoluteString) as \(name)."))
      say(
        "From now on `course`, `course check`, `course hint` and each rerun of `course watch` tell the "
          + "instructor your stage, the tasks passing and failing, the task you are on and for how long, the "
          + "hints you took, the faults your tests caught and your `course doctor` result; never your code, "
          + "file paths, user name or anything about this laptop. `\(invocation) leave` stops it.")
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
  func tellClassroom(_ finding: ClassroomMembership.Finding) {
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
