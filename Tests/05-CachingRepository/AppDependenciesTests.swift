import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// The composition root builds the caching repository over the real SQLite store.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct AppDependenciesTests {
  @Test func liveWiringShowsYesterdaysListOfflineAfterARestart() async throws {
    let api = FakeCatalogAPI()
    let file = TemporaryDatabase()
    let first = await Result {
      try await AppDependencies.live(databasePath: file.path, baseURL: api.baseURL, session: api.session)
        .productRepository.products(policy: .networkFirst)
    }
    #expect(
      (try? first.get())?.origin == .network && (try? first.get())?.value.count == 30 && api.requests.count == 1,
      guide.task(
        5,
        "the live wiring's first network-first read should fetch the 30 first products with 1 request, got \(describe(first)) after \(api.requests.count) request(s)",
        blaming: first))
    api.inject(.offline)
    let restarted = Result {
      try AppDependencies.live(databasePath: file.path, baseURL: api.baseURL, session: api.session)
    }
    let viewModel = try #require(
      try? restarted.get().makeProductListViewModel(),
      guide.task(2, "the live wiring should open the same database file again, got \(restarted)", blaming: restarted))
    await viewModel.load()
    #expect(
      Bool(same(viewModel.state, .loaded((try? first.get())?.value ?? []))) && viewModel.lastUpdate?.origin == .disk,
      guide.task(
        5,
        "after a restart, offline, the list screen should show the saved list from disk, got \(viewModel.state) from \(String(describing: viewModel.lastUpdate?.origin))",
        blaming: first))
  }

  /// The app hears what the repository does not throw: `live(report:)` reaches
  /// the repository, and a cache write that fails is reported once while the
  /// screen still shows the network's answer.
  @Test func liveWiringReportsACacheWriteThatFailedAndStillShowsTheAnswer() async throws {
    let api = FakeCatalogAPI()
    let file = TemporaryDatabase()
    let heard = Mutex<[String]>([])
    let app = try AppDependencies.live(
      databasePath: file.path, baseURL: api.baseURL, session: api.session,
      report: { diagnostic in heard.withLock { $0.append("\(diagnostic)") } })
    // A second connection makes every table of the cache refuse writes, as a full disk would.
    let raw = try SQLiteConnection(path: file.path)
    let tables = try raw.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
      .query { $0.text(at: 0) ?? "" }
    for table in tables {
      for event in ["INSERT", "UPDATE", "DELETE"] {
        try raw.execute(
          "CREATE TRIGGER \"refuse_\(event)_\(table)\" BEFORE \(event) ON \"\(table)\" BEGIN SELECT RAISE(ABORT, 'disk full'); END"
        )
      }
    }
    let model = app.makeProductListViewModel()
    await model.load()
    let reports = heard.withLock { $0 }
    #expect(
      model.lastUpdate?.origin == .network && reports.count == 1 && reports.first?.hasPrefix("writeFailed") == true,
      guide.task(
        4,
        "with a cache that refuses writes, the screen should show the network's 30 products and the app hear one writeFailed through live(report:); the screen shows \(model.state) from \(String(describing: model.lastUpdate?.origin)), and the app heard \(reports)"
      ))
  }

  @Test func liveWiringStartsAnEmptyCacheOverAnUnreadableFile() async throws {
    let api = FakeCatalogAPI()
    let file = TemporaryDatabase()
    try Data("not a database, but long enough to be read as one".utf8).write(to: URL(fileURLWithPath: file.path))
    let answer = await Result {
      try await AppDependencies.live(databasePath: file.path, baseURL: api.baseURL, session: api.session)
        .productRepository.products(policy: .staleWhileRevalidate)
    }
    let movedAside = FileManager.default.fileExists(atPath: file.path + ".unreadable")
    #expect(
      (try? answer.get())?.origin == .network && movedAside,
      guide.task(
        5,
        "over a file that is not a database, the live wiring moves it aside (openOrReset(path:)) and answers from the network, got \(describe(answer)), \(movedAside ? "" : "no ")file at .unreadable",
        blaming: answer))
  }

  @Test func previewWiringAnswersFromMemoryWithoutANetwork() async {
    let answer = await Result { try await AppDependencies.preview.productRepository.products(policy: .cacheOnly) }
    #expect(
      (try? answer.get())?.value == PreviewProductRepository.products && (try? answer.get())?.origin == .memory,
      guide.task(
        5, "the preview wiring answers its canned products from memory, got \(describe(answer))", blaming: answer))
  }
}
