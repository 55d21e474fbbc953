import CourseClock
import CourseFixtures
import FakeCatalog
import Foundation
import Solution08
import Testing

/// What the database keeps, through the composition root only.
struct WhatTheStoreKeepsTests {
  let api = FakeCatalogAPI()
  let path = FileManager.default.temporaryDirectory.appendingPathComponent("keep-\(UUID().uuidString).sqlite").path
  let today = Date(timeIntervalSince1970: 1_796_115_600)

  func launch() throws -> any ArticleRepository {
    try makeArticleRepository(baseURL: api.baseURL, session: api.session, databasePath: path, now: { today })
  }

  @Test func aRestartKeepsEveryArticle() async throws {
    try await launch().refresh()
    api.inject(.offline)
    #expect(try await launch().latest().count == 12)
  }

  @Test func theNewestComesFirst() async throws {
    let articles = try await launch().latest()
    let dates = articles.map(\.updatedAt)
    #expect(dates == dates.sorted(by: >))
  }

  @Test func aLateAnswerDoesNotUndoANewerEdit() async throws {
    let repository = try launch()
    try await repository.refresh()
    api.inject(.latency(.seconds(5)), on: .articles, times: 1)
    let slow = Task { try await repository.refresh() }
    await api.clock.waitForSleepers(count: 1)
    // Edited on the server after the slow refresh was answered, before it arrives.
    api.articles = api.articles.map { record in
      guard record["id"]?.stringValue == "sofa-measuring-guide", case .object(var fields) = record else {
        return record
      }
      fields["title"] = .string("Measure twice")
      fields["updated_at"] = .string("2026-12-01T10:00:00.000Z")
      return .object(fields)
    }
    try await repository.refresh()
    api.clock.advance(by: .seconds(5))
    try await slow.value
    let stored = try await repository.latest()
    #expect(stored.first { $0.id == "sofa-measuring-guide" }?.title == "Measure twice")
  }
}
