import CourseClock
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Synchronization
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// Task 8: the app's own session; and Task 7's retrying source in the live wiring.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct AppDependenciesTests {
  static let makeConfiguration: () throws -> URLSessionConfiguration = AppDependencies.sessionConfiguration

  @Test func theSessionGivesUpWhileAPersonStillWaits() {
    let outcome = Result { try Self.makeConfiguration().timeoutIntervalForRequest }
    let timeout = (try? outcome.get()) ?? 60
    #expect(
      timeout > 0 && timeout <= 20,
      guide.task(
        8,
        "timeoutIntervalForRequest should be what a person waits for (at most 20 s), not the 60 s default; got \(said(outcome))",
        blaming: outcome))
  }

  @Test func noHTTPCacheUnderTheRepositorysCache() {
    let outcome = Result { try Self.makeConfiguration() }
    let configuration = try? outcome.get()
    let got =
      if let configuration {
        "urlCache \(shown(configuration.urlCache as Any)), requestCachePolicy \(Self.name(of: configuration.requestCachePolicy))"
      } else { said(outcome) }
    #expect(
      configuration != nil && configuration?.urlCache == nil
        && configuration?.requestCachePolicy == .reloadIgnoringLocalCacheData,
      guide.task(
        8,
        "the app's session has no URLCache (nil) and ignores cached responses (.reloadIgnoringLocalCacheData; Apple documents .reloadIgnoringLocalAndRemoteCacheData as unimplemented), so network-first means the network; got \(got)",
        blaming: outcome))
  }

  /// A cache policy as Swift spells it, for messages.
  static func name(of policy: URLRequest.CachePolicy) -> String {
    switch policy {
    case .useProtocolCachePolicy: ".useProtocolCachePolicy"
    case .reloadIgnoringLocalCacheData: ".reloadIgnoringLocalCacheData"
    case .reloadIgnoringLocalAndRemoteCacheData: ".reloadIgnoringLocalAndRemoteCacheData"
    case .returnCacheDataElseLoad: ".returnCacheDataElseLoad"
    case .returnCacheDataDontLoad: ".returnCacheDataDontLoad"
    case .reloadRevalidatingCacheData: ".reloadRevalidatingCacheData"
    @unknown default: "rawValue \(policy.rawValue)"
    }
  }

  @Test func theLiveWiringRetriesATransientFailure() async throws {
    guard guide.requireTask1(for: 7), Policy.requireTask6(for: 7) else { return }
    let api = FakeCatalogAPI()
    api.inject(.status(503), on: .list, times: 1)
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString).sqlite")
    defer { try? FileManager.default.removeItem(at: file) }
    let clock = TestClock()
    let built = Result {
      try AppDependencies.live(databasePath: file.path, baseURL: api.baseURL, session: api.session, clock: clock)
    }
    let dependencies = try #require(
      try? built.get(), guide.task(8, "live(…) should build the app, got \(said(built))", blaming: built))
    let read = Task { try await dependencies.productRepository.products(policy: .networkOnly) }
    // At most 20 waits, then the read is cancelled: a loop that never stops fails instead of spinning.
    for _ in 1...20 {
      guard await clock.waitForSleepers(count: 1, whileRunning: read) else { break }
      clock.advance(by: .seconds(10))
    }
    read.cancel()
    let outcome = await read.result
    // A 503 that reaches the retries as something else (not .server(status: 503)) is Task 3's mapping.
    let mapped = outcome.failure as? CatalogError
    let misread = mapped.map { if case .server(503, _) = $0 { false } else { true } } ?? false
    #expect(
      (try? outcome.get().value.count) == 30 && api.requests.count == 2 && api.sharedSessionRequests.isEmpty,
      guide.task(
        misread ? 3 : 7,
        misread
          ? "live()'s retries saw the catalog's 503 as \(brief(outcome)), where map(status:retryAfter:now:) should give .server(status: 503), which retrying can help; then the 30 products on the second request"
          : "live() wraps the remote source in RetryingProductRemoteDataSource: a 503, then the 30 products on the second request; got \(brief(outcome)) after \(api.requests.count) request(s)",
        blaming: outcome))
  }

  /// The app hears what the screen never sees: a refresh behind a stale read that
  /// fails reaches `live(report:)` once, and the read still answers the stored list.
  @Test func theLiveWiringReportsABackgroundRefreshThatFailed() async throws {
    guard guide.requireTask1(for: 8), Policy.requireTask6(for: 8) else { return }
    let api = FakeCatalogAPI()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString).sqlite")
    defer { try? FileManager.default.removeItem(at: file) }
    let heard = Mutex<[String]>([])
    let report: @Sendable (CacheDiagnostic) -> Void = { diagnostic in heard.withLock { $0.append("\(diagnostic)") } }
    let first = try AppDependencies.live(
      databasePath: file.path, baseURL: api.baseURL, session: api.session, clock: TestClock(), report: report)
    let filled = await Result { try await first.productRepository.products(policy: .networkFirst) }
    guard filled.failure == nil else {
      Issue.record(
        guide.task(8, "the first launch's read should fill the cache, got \(brief(filled))", blaming: filled))
      return
    }
    // The next launch, ten minutes later: past the list's soft age (5 min), within its hard age (a day).
    try SQLiteConnection(path: file.path).execute("UPDATE cached_lists SET fetched_at = fetched_at - 600")
    api.inject(.status(400, message: "Bad request"), on: .list, times: 1)
    let relaunched = try AppDependencies.live(
      databasePath: file.path, baseURL: api.baseURL, session: api.session, clock: TestClock(), report: report)
    let answer = await Result { try await relaunched.productRepository.products(policy: .staleWhileRevalidate) }
    let reported = await withinSafetyLimit {
      while !heard.withLock({ $0.contains { $0.hasPrefix("revalidationFailed") } }) { await Task.yield() }
    }
    let reports = heard.withLock { $0 }
    #expect(
      (try? answer.get())?.value.count == 30 && (try? answer.get())?.isStale == true && reported
        && reports.filter { $0.hasPrefix("revalidationFailed") }.count == 1,
      guide.task(
        8,
        "a stale read after a relaunch should answer the stored 30 products at once, and the app hear the failed refresh behind it once through live(report:); got \(brief(answer)), and the app heard \(reports)",
        blaming: answer))
  }

  @Test func theLiveWiringStartsAnEmptyCacheOverAnUnreadableFile() async throws {
    let api = FakeCatalogAPI()
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString).sqlite")
    defer {
      for suffix in ["", ".unreadable"] { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }
    try Data("not a database, but long enough to be read as one".utf8).write(to: file)
    let answer = await Result {
      try await AppDependencies.live(databasePath: file.path, baseURL: api.baseURL, session: api.session)
        .productRepository.products(policy: .networkOnly)
    }
    let movedAside = FileManager.default.fileExists(atPath: file.path + ".unreadable")
    #expect(
      (try? answer.get())?.value.count == 30 && movedAside,
      guide.task(
        8,
        "over a file that is not a database, live() still moves it aside (stage 05's openOrReset(path:)) and answers the network's 30 products; got \(brief(answer)), \(movedAside ? "" : "no ")file at .unreadable",
        blaming: answer))
  }

  @Test func aDatabaseThatCannotBeOpenedIsAStorageFailure() async throws {
    let api = FakeCatalogAPI()
    let missingFolder = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString)")
    let built = Result {
      try AppDependencies.live(
        databasePath: missingFolder.appendingPathComponent("catalog.sqlite").path, baseURL: api.baseURL,
        session: api.session)
    }
    #expect(
      built.failure as? CatalogError == .storage(.unavailable),
      guide.task(
        4,
        "live() over a file in a folder that does not exist fails to open it (SQLite's cantOpen): it should throw CatalogError.storage(.unavailable), got \(built.failure.map { "threw \(shown($0))" } ?? "the app, built without an error")",
        blaming: built))
  }
}
