import Classroom
import Foundation
import Synchronization

@testable import CatalogServer

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

// The classroom runs as a process of its own, which iOS cannot start.
#if os(macOS) || os(Linux)
  /// `course classroom` under a room's load, and killed in the middle of it.
  ///
  ///     swift build --product course
  ///     COURSE_BENCHMARKS=1 swift run -c release benchmarks classroom "$(swift build --show-bin-path)/course"
  ///
  /// Starts the classroom as a process of its own, then `learners` simulated
  /// laptops each join and post a snapshot every 2 s for `seconds`, each post on
  /// a new connection as each `course` command makes one. Halfway through, the
  /// classroom gets SIGKILL and is started again on the same port and file. It
  /// reports the requests answered and refused, latency percentiles, the
  /// classroom's resident memory, and whether the room came back from its file
  /// with every learner's last acknowledged snapshot and took their next posts.
  enum ClassroomBenchmark {
    static func run(course: String, learners: Int, seconds: Int) throws {
      let folder = FileManager.default.temporaryDirectory.appendingPathComponent("classroom-bench-\(UUID().uuidString)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      defer { try? FileManager.default.removeItem(at: folder) }
      let roomPath = folder.appendingPathComponent("room.sqlite").path
      let port = UInt16(Int.random(in: 20_000...40_000))
      var child = try Child(course: course, port: port, room: roomPath, folder: folder)
      let banner = try child.waitForBanner()
      guard let code = banner.code, let token = banner.token else { throw BenchmarkError("no join code in the banner") }
      print(
        "  classroom pid \(child.pid) on 127.0.0.1:\(port), \(learners) learners, one post each every 2 s for \(seconds) s"
      )

      let stats = Stats()
      let keys = (0..<learners).map { index -> String in
        let body = Data(#"{"name":"learner-\#(index)"}"#.utf8)
        let answer = HTTP.post(port: port, path: "/join", headers: ["X-Join-Code": code], body: body)
        guard answer.status == 201,
          let key = (try? JSONDecoder().decode([String: String].self, from: answer.body))?["learner"]
        else { return "" }
        return key
      }
      guard !keys.contains("") else { throw BenchmarkError("a join failed") }

      let started = ContinuousClock.now
      let end = started + .seconds(seconds)
      let killAt = started + .seconds(seconds / 2)
      let running = Mutex(true)
      let finished = DispatchGroup()
      for (index, key) in keys.enumerated() {
        finished.enter()
        let thread = Thread {
          defer { finished.leave() }
          // Spread the learners over the 2 s period.
          var next = started + .milliseconds(2_000 * index / learners)
          var sequence = 0
          while ContinuousClock.now < end && running.withLock({ $0 }) {
            let wait = next - ContinuousClock.now
            if wait > .zero { Thread.sleep(forTimeInterval: Double(wait / .milliseconds(1)) / 1000) }
            sequence += 1
            let body = Self.snapshot(sequence)
            stats.attempted(learner: index, sequence: sequence)
            let sent = ContinuousClock.now
            let answer = HTTP.post(
              port: port, path: "/snapshot", headers: ["X-Join-Code": code, "X-Learner": key], body: body)
            stats.record(learner: index, sequence: sequence, status: answer.status, latency: ContinuousClock.now - sent)
            next += .seconds(2)
          }
        }
        thread.start()
      }

      // Memory every second; the kill at half time; the restart at once on the same port and file.
      var memory: [Int] = []
      var killedAt: ContinuousClock.Instant?
      var backAfter: Duration?
      var recovered: (found: Int, matching: Int)?
      while ContinuousClock.now < end {
        Thread.sleep(forTimeInterval: 1)
        if let rss = child.residentKilobytes() { memory.append(rss) }
        if killedAt == nil && ContinuousClock.now >= killAt {
          let ackedBefore = stats.lastAcknowledged()
          child.kill()
          killedAt = ContinuousClock.now
          recovered = try Self.compare(roomPath: roomPath, acknowledged: ackedBefore, attempted: stats.lastAttempted())
          child = try Child(course: course, port: port, room: roomPath, folder: folder)
          _ = try child.waitForBanner()
          backAfter = ContinuousClock.now - (killedAt ?? .now)
        }
      }
      running.withLock { $0 = false }
      finished.wait()

      // Every learner's next post lands on the restarted classroom, and the page sees them all.
      var landed = 0
      for (index, key) in keys.enumerated() {
        let answer = HTTP.post(
          port: port, path: "/snapshot", headers: ["X-Join-Code": code, "X-Learner": key],
          body: Self.snapshot(10_000 + index))
        if answer.status == 204 { landed += 1 }
      }
      let view = HTTP.get(port: port, path: "/room.json?token=\(token)")
      let rows = (try? JSONDecoder().decode(Rows.self, from: view.body))?.rows.count ?? 0
      child.kill()

      let report = stats.summary()
      print("  posts sent                         \(report.sent)")
      print("  answered 204                       \(report.ok)")
      print("  refused 429 (too often)            \(report.tooOften)")
      print("  other statuses                     \(report.other)")
      print("  no answer (classroom down)         \(report.unanswered)")
      print(
        String(format: "  latency p50 / p99 / max            %.2f / %.2f / %.2f ms", report.p50, report.p99, report.max)
      )
      if let high = memory.max(), let low = memory.min() {
        print("  classroom resident memory          \(low / 1024)–\(high / 1024) MiB")
      }
      if let backAfter {
        print(String(format: "  SIGKILL to listening again         %.0f ms", Double(backAfter / .milliseconds(1))))
      }
      if let recovered {
        print(
          "  after SIGKILL, in the file         \(recovered.found) of \(learners) learners,"
            + " \(recovered.matching) with their last acknowledged (or in-flight) snapshot")
      }
      print("  next post after the restart        \(landed) of \(learners) landed; the page shows \(rows) rows")
    }

    /// A snapshot that says which post it was: `secondsOnTask` carries the sequence number.
    static func snapshot(_ sequence: Int) -> Data {
      Snapshot(
        event: .check, stage: "04", task: sequence % 9 + 1, secondsOnTask: sequence, passing: [],
        failing: [sequence % 9 + 1],
        solved: ["01", "02", "03"], hints: 0, doctor: .passed
      ).encoded()
    }

    /// Opens the dead classroom's file the way a restart does and compares each learner's stored snapshot.
    static func compare(roomPath: String, acknowledged: [Int: Int], attempted: [Int: Int]) throws -> (Int, Int) {
      let room = try Room(path: roomPath, stages: [])
      let learners = try room.learners()
      var matching = 0
      for learner in learners {
        guard let index = Int(learner.name.dropFirst("learner-".count)), let stored = learner.snapshot?.secondsOnTask
        else { continue }
        if stored == acknowledged[index] || stored == attempted[index] { matching += 1 }
      }
      return (learners.count, matching)
    }

    struct Rows: Decodable {
      struct Row: Decodable { var name: String }
      var rows: [Row]
    }

    // MARK: Counting

    final class Stats: Sendable {
      private struct State {
        var latencies: [Double] = []
        var statuses: [Int: Int] = [:]
        var unanswered = 0
        var acknowledged: [Int: Int] = [:]
        var attempted: [Int: Int] = [:]
      }
      private let state = Mutex(State())

      func attempted(learner: Int, sequence: Int) { state.withLock { $0.attempted[learner] = sequence } }

      func record(learner: Int, sequence: Int, status: Int?, latency: Duration) {
        state.withLock { state in
          guard let status else {
            state.unanswered += 1
            return
          }
          state.statuses[status, default: 0] += 1
          state.latencies.append(Double(latency / .microseconds(1)) / 1000)
          if status == 204 { state.acknowledged[learner] = sequence }
        }
      }

      func lastAcknowledged() -> [Int: Int] { state.withLock { $0.acknowledged } }
      func lastAttempted() -> [Int: Int] { state.withLock { $0.attempted } }

      func summary() -> (
        sent: Int, ok: Int, tooOften: Int, other: Int, unanswered: Int, p50: Double, p99: Double, max: Double
      ) {
        state.withLock { state in
          let sorted = state.latencies.sorted()
          func percentile(_ p: Double) -> Double {
            sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
          }
          let ok = state.statuses[204] ?? 0
          let tooOften = state.statuses[429] ?? 0
          let other = state.statuses.values.reduce(0, +) - ok - tooOften
          return (
            sorted.count + state.unanswered, ok, tooOften, other, state.unanswered, percentile(0.5), percentile(0.99),
            sorted.last ?? 0
          )
        }
      }
    }

    // MARK: The classroom process

    struct Child {
      let process: Process
      let output: Pipe
      var pid: Int32 { process.processIdentifier }

      init(course: String, port: UInt16, room: String, folder: URL) throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: course)
        process.arguments = ["classroom", "--port", "\(port)", "--room", room]
        process.currentDirectoryURL = folder
        output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
      }

      /// Reads the banner: the join code and the token.
      func waitForBanner() throws -> (code: String?, token: String?) {
        var text = ""
        let handle = output.fileHandleForReading
        let deadline = Date().addingTimeInterval(30)
        while !text.contains("Room file:") && Date() < deadline {
          let data = handle.availableData
          if data.isEmpty { break }
          text += String(decoding: data, as: UTF8.self)
        }
        // Keep reading the log so the classroom never blocks on a full pipe.
        handle.readabilityHandler = { handle in
          if handle.availableData.isEmpty { handle.readabilityHandler = nil }
        }
        let words = text.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        let code = words.firstIndex(of: "code:").map { words[$0 + 1] }
        let token = words.first { $0.contains("?token=") }.map { String($0.split(separator: "=").last ?? "") }
        guard text.contains("Room file:") else { throw BenchmarkError("the classroom did not start:\n\(text)") }
        return (code, token)
      }

      func kill() {
        _ = sendSignal(pid, SIGKILL)
        process.waitUntilExit()
      }

      /// The process's resident memory, from `ps`.
      func residentKilobytes() -> Int? {
        let ps = Process()
        ps.executableURL = URL(fileURLWithPath: "/bin/ps")
        ps.arguments = ["-o", "rss=", "-p", "\(pid)"]
        let pipe = Pipe()
        ps.standardOutput = pipe
        guard (try? ps.run()) != nil else { return nil }
        ps.waitUntilExit()
        return Int(
          String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines))
      }
    }

    struct BenchmarkError: Error, CustomStringConvertible {
      let description: String
      init(_ description: String) { self.description = description }
    }

    // MARK: A blocking HTTP/1.1 client, one connection per request

    enum HTTP {
      struct Answer {
        var status: Int?
        var body: Data
      }

      static func post(port: UInt16, path: String, headers: [String: String], body: Data) -> Answer {
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Type: application/json\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n\r\n"
        return exchange(port: port, Array(head.utf8) + Array(body))
      }

      static func get(port: UInt16, path: String) -> Answer {
        exchange(port: port, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
      }

      static func exchange(port: UInt16, _ bytes: [UInt8]) -> Answer {
        guard let socket = Socket.connect(toLoopbackPort: port), socket.send(bytes) else {
          return Answer(status: nil, body: Data())
        }
        var received: [UInt8] = []
        while socket.waitReadable(milliseconds: 5_000) == .readable, socket.receive(into: &received) > 0 {}
        let text = String(decoding: received, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 "), let status = Int(text.dropFirst(9).prefix(3)) else {
          return Answer(status: nil, body: Data())
        }
        let body = text.range(of: "\r\n\r\n").map { Data(text[$0.upperBound...].utf8) } ?? Data()
        return Answer(status: status, body: body)
      }
    }
  }

  /// `kill(2)`, whose name the benchmark's `Child.kill()` hides.
  private func sendSignal(_ pid: Int32, _ signal: Int32) -> Int32 { kill(pid, signal) }
#endif
