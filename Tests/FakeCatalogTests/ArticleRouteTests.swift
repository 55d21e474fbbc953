import CourseFixtures
import FakeCatalog
import Foundation
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The capstone's resource: `GET /articles` and `GET /articles/{id}`.
struct ArticleRouteTests {
  private func get(_ api: FakeCatalogAPI, _ path: String) async throws -> (JSONValue, Int) {
    let (data, response) = try await api.session.data(from: api.baseURL.appendingPathComponent(path))
    return (try JSONValue(data: data), (response as? HTTPURLResponse)?.statusCode ?? 0)
  }

  private static func instant(_ text: String?) -> Date? {
    guard let text else { return nil }
    return (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
      ?? (try? Date.ISO8601FormatStyle().parse(text))
  }

  @Test func theFixtureHasTwelveArticlesWithBothDateForms() {
    let dates = ArticleFixtures.records.compactMap { $0["updated_at"]?.stringValue }
    #expect(ArticleFixtures.records.count == 12)
    #expect(dates.count == 12 && dates.allSatisfy { Self.instant($0) != nil })
    #expect(dates.contains { $0.contains(".") } && dates.contains { !$0.contains(".") })
  }

  @Test func theListIsNewestFirstByInstantNotByText() async throws {
    let api = FakeCatalogAPI()
    let (body, status) = try await get(api, "articles")
    guard case .array(let articles) = body else {
      Issue.record("expected a JSON array, got \(body)")
      return
    }
    let dates = articles.compactMap { Self.instant($0["updated_at"]?.stringValue) }
    #expect(status == 200 && articles.count == 12)
    #expect(dates == dates.sorted(by: >), "newest first")
    #expect(api.requests.first?.route == .articles)
  }

  @Test func oneArticleAndAMissingOne() async throws {
    let api = FakeCatalogAPI()
    let (found, ok) = try await get(api, "articles/gift-cards-expiry")
    #expect(ok == 200 && found["title"]?.stringValue == "Our gift cards no longer expire")
    let (missing, notFound) = try await get(api, "articles/no-such-article")
    #expect(notFound == 404 && missing["message"]?.stringValue == "Article with id 'no-such-article' not found")
    #expect(api.requests.map(\.route) == [.article, .article])
  }

  @Test func settingTheArticlesIsAnotherClientsEdit() async throws {
    let api = FakeCatalogAPI(articles: [])
    let (empty, _) = try await get(api, "articles")
    #expect(empty == .array([]))
    api.articles = [
      .object(["id": .string("b"), "updated_at": .string("2026-01-01T00:00:00Z")]),
      .object(["id": .string("a"), "updated_at": .string("2026-01-01T00:00:00.500Z")]),
    ]
    let (body, _) = try await get(api, "articles")
    guard case .array(let articles) = body else {
      Issue.record("expected a JSON array, got \(body)")
      return
    }
    #expect(articles.compactMap { $0["id"]?.stringValue } == ["a", "b"], "half a second later is newer")
  }

  @Test func faultsAimAtTheArticleRoutes() async throws {
    let api = FakeCatalogAPI()
    api.inject(.status(503, message: "Down"), on: .articles, times: 1)
    let (_, first) = try await get(api, "articles")
    let (_, second) = try await get(api, "articles")
    #expect(first == 503 && second == 200)
  }
}
