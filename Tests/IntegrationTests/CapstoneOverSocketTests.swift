import Alternative08
import CatalogServer
import CourseFixtures
import FakeCatalog
import Foundation
import Solution08
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Both designs of the capstone against `course serve` on 127.0.0.1, through a
/// real `URLSession` and a database file: what the in-process fake cannot show
/// (a body cut off on the wire, a server that drops the connection).
@Suite(.timeLimit(.minutes(1)))
struct CapstoneOverSocketTests {
  /// One design's journal, driven in plain values.
  struct Journal: Sendable {
    let latestIDs: @Sendable () async throws -> [String]
    let refresh: @Sendable () async throws -> Void
    let isOffline: @Sendable (any Error) -> Bool
  }

  /// How each design is launched: its composition root on a server, a session and a file.
  static let designs: [(name: String, launch: @Sendable (URL, URLSession, String) throws -> Journal)] = [
    (
      "Solution08",
      { url, session, path in
        let repository = try Solution08.makeArticleRepository(
          baseURL: url, session: session, databasePath: path, report: { _ in })
        return Journal(
          latestIDs: { try await repository.latest().map(\.id) }, refresh: { try await repository.refresh() },
          isOffline: { $0 as? Solution08.ArticleError == .offline })
      }
    ),
    (
      "Alternative08",
      { url, session, path in
        let repository = try Alternative08.makeArticleRepository(
          baseURL: url, session: session, databasePath: path, report: { _ in })
        return Journal(
          latestIDs: { try await repository.latest().map(\.id) }, refresh: { try await repository.refresh() },
          isOffline: { $0 as? Alternative08.ArticleError == .offline })
      }
    ),
  ]

  /// The fixture's ids, newest first, as the server sorts them.
  static let newestFirst: [String] = {
    let dated = ArticleFixtures.records.map { record -> (String, Date) in
      let text = record["updated_at"]?.stringValue ?? ""
      let date =
        (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
        ?? (try? Date.ISO8601FormatStyle().parse(text)) ?? .distantPast
      return (record["id"]?.stringValue ?? "", date)
    }
    return dated.sorted { $0.1 > $1.1 }.map(\.0)
  }()

  /// A server on a free port, a session to it and a database file, all gone afterwards.
  private func withLoopback(_ body: (CatalogServer, URLSession, String) async throws -> Void) async throws {
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = 10
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("capstone-\(UUID().uuidString).sqlite")
      .path
    // The session is not invalidated: a design may still be refreshing behind
    // its last read when the test ends (the alternative refreshes after every
    // read), and a request started on an invalidated session traps in
    // swift-corelibs-foundation ("Session invalidated"). With the server gone,
    // that late refresh fails, and the design reports it to `report`, which
    // drops it here.
    defer {
      for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
    try await CatalogServer.withRunning { server in try await body(server, session, path) }
  }

  @Test(arguments: designs.indices)
  func theJournalComesOverTheWireNewestFirstAndSurvivesARestart(design: Int) async throws {
    let (name, launch) = Self.designs[design]
    try await withLoopback { server, session, path in
      let first = try launch(server.baseURL, session, path)
      #expect(try await first.latestIDs() == Self.newestFirst, "\(name): the 12 articles, newest first")
      _ = server.perform(.offline(seconds: nil))
      let second = try launch(server.baseURL, session, path)
      #expect(try await second.latestIDs() == Self.newestFirst, "\(name): a restart offline reads the file")
      await #expect(throws: (any Error).self, "\(name): refresh() offline throws") { try await second.refresh() }
    }
  }

  @Test(arguments: designs.indices)
  func anAnswerCutOffOnTheWireKeepsWhatWasStored(design: Int) async throws {
    let (name, launch) = Self.designs[design]
    try await withLoopback { server, session, path in
      let journal = try launch(server.baseURL, session, path)
      try await journal.refresh()
      // The headers promise the whole body; the connection closes halfway through it.
      server.responder.inject(.truncatedBody, on: .articles, times: 1)
      do {
        try await journal.refresh()
        Issue.record("\(name): a body cut off on the wire should fail the refresh")
      } catch {
        #expect(journal.isOffline(error), "\(name): a connection lost mid-body is .offline, got \(error)")
      }
      #expect(try await journal.latestIDs() == Self.newestFirst, "\(name): the 12 stored articles, unchanged")
    }
  }
}
