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
/// Each launch adds one product ("kill-N") and syncs until its outbox is empty;
/// the parent kills it after a random 10–150 ms, and between launches asks the
/// server to lose, cut or drop its next answers, or to answer 503. At the end a
/// last launch syncs without being killed, and the parent counts: adds the device
/// committed that the server lacks (lost), adds the server holds twice (doubled),
/// and products whose title differs between device and server (diverged).
enum KillBenchmark {
  /// `kill-sync BASE-URL KILLS`: the parent.
  static func run(baseURL: URL, kills: Int) async throws {
    let path = temporaryPath("kill-sync")
    defer { SQLiteConnection.removeDatabase(atPath: path) }
    let faults = ["lose 1", "cut 1", "drop 1", "status 503 1", "clear"]
    var generator = SystemRandomNumberGenerator()
    var killed = 0
    let started = ContinuousClock.now
    for launch in 0..<kills {
      if launch % 3 == 0, let fault = faults.randomElement(using: &generator) {
        try await admin(baseURL, fault)
      }
      let child = try launchChild(baseURL: baseURL, path: path, add: launch)
      try await Task.sleep(for: .milliseconds(Int.random(in: 10...150, using: &generator)))
      if child.isRunning {
        kill(child.processIdentifier, SIGKILL)
        killed += 1
      }
      child.waitUntilExit()
    }
    try await admin(baseURL, "clear")
    let last = try launchChild(baseURL: baseURL, path: path, add: nil)
    last.waitUntilExit()
    guard last.terminationStatus == 0 else {
      print("  the last launch failed with status \(last.terminationStatus)")
      return
    }
    let (lost, doubled, diverged, committed) = try await count(baseURL: baseURL, path: path)
    let elapsed = ContinuousClock.now - started
    print("  \(kills) launches, \(killed) killed mid-run, \(committed) adds committed on the device, in \(elapsed)")
    print("  lost \(lost), doubled \(doubled), diverged \(diverged)")
  }

  /// `sync-child BASE-URL PATH [N]`: one launch of the app.
  static func child(baseURL: URL, path: String, add: Int?) async throws {
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
    if let add {
      let title = "kill-\(add)"
      let known = try await store.products().contains { $0.title == title }
      if !known {
        let product = Product(
          id: 0, title: title, description: "Added by launch \(add)", category: "benchmark", price: 1,
          discountPercentage: 0, rating: 0, stock: add, brand: nil, thumbnail: nil, updatedAt: Date())
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
    // The device takes the catalog's page of everything, as a refresh would.
    let revision = try await store.revision()
    let page = try await remote.products(limit: 0, skip: 0)
    try await store.savePage(page, fetchedAt: revision)
  }

  private static func launchChild(baseURL: URL, path: String, add: Int?) throws -> Process {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    process.arguments = ["sync-child", baseURL.absoluteString, path] + (add.map { ["\($0)"] } ?? [])
    try process.run()
    return process
  }

  private static func admin(_ baseURL: URL, _ command: String) async throws {
    var request = URLRequest(url: baseURL.appendingPathComponent("__admin"))
    request.httpMethod = "POST"
    request.httpBody = Data(command.utf8)
    _ = try await URLSession(configuration: .ephemeral).data(for: request)
  }

  private static func count(baseURL: URL, path: String) async throws -> (
    lost: Int, doubled: Int, diverged: Int, committed: Int
  ) {
    let store = try OfflineProductStore(path: path)
    let device = try await store.products()
    let remote = URLSessionProductRemoteDataSource(
      baseURL: baseURL, session: URLSession(configuration: .ephemeral), now: { Date() })
    let server = try await remote.products(limit: 0, skip: 0).products
    let committed = Set(device.map(\.title).filter { $0.hasPrefix("kill-") })
    let serverTitles = server.map(\.title).filter { $0.hasPrefix("kill-") }
    let lost = committed.subtracting(serverTitles).count
    let doubled = serverTitles.count - Set(serverTitles).count
    let byID = Dictionary(server.map { ($0.id, $0.title) }, uniquingKeysWith: { first, _ in first })
    let diverged =
      device.filter { byID[$0.id] != $0.title }.count + (try await store.outbox().isEmpty ? 0 : 1)
    return (lost, doubled, diverged, committed.count)
  }
}
