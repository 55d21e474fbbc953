import Foundation

/// Twelve articles of a shop's journal, the records behind `GET /articles`.
///
/// Written for this course (no outside text). Their shape is the one a real
/// content API gives: snake-case keys (`updated_at`), string ids (slugs), and
/// ISO 8601 dates, some with fractional seconds (`2026-11-14T16:40:12.250Z`) and
/// some without (`2026-11-02T08:15:00Z`), as servers that write both send them.
/// The file is in the order the articles were written, not newest first: the
/// server sorts each answer.
public enum ArticleFixtures {
  /// The raw bytes of `articles.json`: a JSON array of article objects.
  public static let data: Data = BundledResource.data("articles", "json")

  /// Every record as a JSON value, in the file's order.
  public static let records: [JSONValue] = BundledResource.records(data, "articles")

  /// The record with the given id, if the fixture has one.
  public static func record(id: String) -> JSONValue? {
    records.first { $0["id"]?.stringValue == id }
  }
}
