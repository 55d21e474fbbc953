import FakeCatalog
import Foundation
import Solution08
import StageTesting
import Testing

/// What latest() answers with, through the composition root only: a fake of
/// the API, a database file, and a wall clock the test moves.
struct WhatAReadServesTests {
  let api = FakeCatalogAPI()
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("read-\(UUID().uuidString).sqlite").path
  let today = Date(timeIntervalSince1970: 1_796_115_600)

  /// A launch of the app on the test's file, with the wall clock at `date`.
  func launch(at date: Date) throws -> any ArticleRepository {
    try makeArticleRepository(baseURL: api.baseURL, session: api.session, databasePath: path, now: { date })
  }

  @Test func offlineAReadGivesWhatWasStored() async throws {
    try await launch(at: today).refresh()
    api.inject(.offline)
    let articles = try await launch(at: today.addingTimeInterval(86_400)).latest()
    #expect(articles.count == 12)
  }

  @Test func aReadOfADayOldStoreAsksTheServerAgain() async throws {
    try await launch(at: today).refresh()
    let repository = try launch(at: today.addingTimeInterval(86_400))
    let before = api.requests.count
    let articles = try await repository.latest()
    #expect(articles.count == 12)
    // The refresh runs behind the answer; `eventually` gives up after a 10 s safety limit.
    #expect(await eventually { api.requests.count == before + 1 })
  }

  @Test func aFirstLaunchOfflineIsOffline() async throws {
    api.inject(.offline)
    await #expect(throws: ArticleError.offline) { try await launch(at: today).latest() }
  }
}
