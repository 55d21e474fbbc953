import Foundation

/// An article as `GET /articles` sends it: snake-case keys and the date as text.
///
/// The JSON's shape ends here. Nothing past the remote source sees `updated_at`
/// or a date string; a record the app cannot read fails the whole answer as
/// `ArticleError.decoding`, so a half-understood list never reaches the store.
nonisolated struct ArticleDTO: Decodable, Sendable {
  let id: String
  let title: String
  let body: String
  let updatedAt: String

  enum CodingKeys: String, CodingKey {
    case id, title, body
    case updatedAt = "updated_at"
  }

  /// The domain value, or `nil` when the date is not ISO 8601.
  func toDomain() -> Article? {
    guard let date = Self.date(from: updatedAt) else { return nil }
    return Article(id: id, title: title, body: body, updatedAt: date)
  }

  /// The server writes `2026-11-14T16:40:12.250Z` and `2026-11-02T08:15:00Z`
  /// alike. Since Swift 6.2's Foundation either style reads both; before it
  /// (iOS 18), each reads one form only, so both are tried.
  static func date(from text: String) -> Date? {
    if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
    return try? Date.ISO8601FormatStyle().parse(text)
  }
}
