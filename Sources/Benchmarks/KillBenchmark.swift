import CourseSQLite
import Foundation

@testable import Solution07

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Stage 07's outbox against `course serve` over real sockets, with the app
/// killed (SIGKILL) at random points of its sync and started again from its file.
///
///     swift run course serve --port 8099 &
///     COURSE_BENCHMARKS=1 swift run -c release benchmarks kill-sync http://127.0.0.1:8099 200
///
/// Each launch adds one product ("kill-RUN-N") and syncs until its outbox is empty;
/// the parent kills it after a random 10–150 ms, and between launches asks the
/// server to lose, cut or drop its next answers, to apply a write and answer it with
/// a 2xx that can't be read (`clip`: half its body; `plain`: plain text), or to answer 503. At the end a
/// last launch syncs without being killed, and the parent counts: adds the device
/// committed that the server lacks (lost), adds the server holds twice (doubled),
/// and products whose title differs between device and server (diverged).
enum KillBenchmark {
  /// `kill-sync BASE-URL KILLS`: the parent.
  static func run(baseURL: URL, kills: Int) async throws {
    // The server outlives a run: this run's adds carry its own prefix.
    let run = String(UUID().uuidString.prefix(8))
    let path = temporaryPath("kill-sync")
    defer { SQLiteConnection.removeDatabase(atPath: path) }
    let faults = ["lose 1", "cut 1", "clip 1", "plain 1", "drop 1", "status 503 1", "clear"]
    var generator = SystemRandomNumberGenerator()
    var killed = 0
    let started = ContinuousClock.now
    for launch in 0..<kills {
      if launch % 3 == 0, let fault = faults.randomElement(using: &generator) {
        try await admin(baseURL, fault)
      }
      let child = try launchChild(baseURL: baseURL, path: path, add: "kill-\(run)-\(launch)")
      try await Task.sleep(for: .milliseconds(Int.random(in: 10...150, using: &generator)))
      var status: Int32 = 0
      if waitpid(child, &status, WNOHANG) == 0 {
        kill(child, SIGKILL)
        killed += 1
        _ = waitpid(child, &status, 0)
      }
    }
    try await admin(baseURL, "clear")
    let last = try launchChild(baseURL: baseURL, path: path, add: nil)
    var status: Int32 = 0
    _ = waitpid(last, &status, 0)
    guard status == 0 else {
      print("  the last launch failed with wait status \(status)")
      return
    }
    let (lost, doubled, diverged, committed) = try await count(baseURL: baseURL, path: path, prefix: "kill-\(run)-")
    let elapsed = ContinuousClock.now - started
    print("  \(kills) launches, \(killed) killed mid-run, \(committed) adds committed on the device, in \(elapsed)")
    print("  lost \(lost), doubled \(doubled), diverged \(diverged)")
  }

  /// `sync-child BASE-URL PATH [TITLE]`: one launch of the app.
  static func child(baseURL: URL, path: String, add title: String?) async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 2
    let session = URLSession(configuration: configuration)
    let store = try OfflineProductStore(path: path)
    let remote = URLSessionProductRemoteDataSource(baseURL: baseURL, session: session, now: { Date() })
    let policy = RetryPolicy(
      maxAttempts: 3, baseDelay: .milliseconds(5), maxDelay: .milliseconds(20), maxRetryAfter: .seconds(1),
      budget: .seconds(5))
    let engine = ProductSyncEngine(
      store: store, remote: remote, retryPolicy: policy, clock: ContinuousClock(), random: { 0.5 })
    if let title {
      let known = try await store.products().contains { $0.title == title }
      if !known {
        let product = Product(
          id: 0, title: title, description: "Added by one launch", category: "benchmark", price: 1,
          discountPercentage: 0, rating: 0, stock: 1, brand: nil, thumbnail: nil, updatedAt: Date())
        try await store.record(.add(product), editedAt: Date())
      }
    }
    for _ in 0..<200 where try await store.pendingCount() > 0 {
      do {
        try await engine.syncNow()
      } catch {
        try await Task.sleep(for: .milliseconds(10))
      }
    }
    // The device takes the catalog's page of everything, as a refresh would;
    // a fault the parent injected may stop it, as it would stop a refresh.
    let revision = try await store.revision()
    if let page = try? await remote.products(limit: 0, skip: 0) {
      try await store.savePage(page, fetchedAt: revision)
    }
  }

  /// Starts one launch of the app, with `posix_spawn` and reaped with `waitpid`:
  /// Foundation's `Process` reaps its children itself, which races with a kill.
  private static func launchChild(baseURL: URL, path: String, add title: String?) throws -> pid_t {
    let arguments = [CommandLine.arguments[0], "sync-child", baseURL.absoluteString, path] + (title.map { [$0] } ?? [])
    #if os(macOS) || os(Linux)
      var argv = arguments.map { strdup($0) } + [nil]
      defer { for pointer in argv { free(pointer) } }
      var pid: pid_t = 0
      // No backtrace for a child that fails: it would hold the parent for its 30 s timeout.
      var environment =
        (ProcessInfo.processInfo.environment.merging(["SWIFT_BACKTRACE": "enable=no"]) { $1 })
        .map { strdup("\($0.key)=\($0.value)") } + [nil]
      defer { for pointer in environment { free(pointer) } }
      let result = posix_spawn(&pid, arguments[0], nil, nil, &argv, &environment)
      guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
      return pid
    #else
      throw POSIXError(.ENOTSUP)  // No child processes on iOS and the like.
    #endif
  }

  private static func admin(_ baseURL: URL, _ command: String) async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("__admin"))
    request.httpMethod = "POST"
    request.httpBody = Data(command.utf8)
    _ = try await URLSession(configuration: .ephemeral).data(for: request)
  }

  private static func count(baseURL: URL, path: String, prefix: String) async throws -> (
    lost: Int, doubled: Int, diverged: Int, committed: Int
  ) {
    let store = try OfflineProductStore(path: path)
    let device = try await store.products()
    let remote = URLSessionProductRemoteDataSource(
      baseURL: baseURL, session: URLSession(configuration: .ephemeral), now: { Date() })
    let server = try await remote.products(limit: 0, skip: 0).products
    let committed = Set(device.map(\.title).filter { $0.hasPrefix(prefix) })
    let serverTitles = server.map(\.title).filter { $0.hasPrefix(prefix) }
    let lost = committed.subtracting(serverTitles).count
    let doubled = serverTitles.count - Set(serverTitles).count
    let byID = Dictionary(server.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    let diverged =
      device.filter { byID[$0.id] != $0.title }.count + (try await store.outbox().isEmpty ? 0 : 1)
    return (lost, doubled, diverged, committed.count)
  }
}
