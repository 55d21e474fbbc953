import Foundation

/// Reads the Catalog API's timestamps, such as `2025-04-30T09:41:02.053Z`.
///
/// The API sends milliseconds. `JSONDecoder.DateDecodingStrategy.iso8601` rejects
/// them on Apple's Foundation before swift-foundation and accepts them on newer
/// toolchains; reading both forms explicitly behaves the same everywhere.
enum CatalogDate {
  private static let withFraction = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
  private static let withoutFraction = Date.ISO8601FormatStyle()

  /// Parses an ISO 8601 timestamp with or without fractional seconds.
  ///
  /// - Throws: `RemoteDataSourceError.invalidData` when the text is neither form.
  static func parse(_ text: String) throws -> Date {
    if let date = try? withFraction.parse(text) { return date }
    if let date = try? withoutFraction.parse(text) { return date }
    throw RemoteDataSourceError.invalidData("\"\(text)\" is not an ISO 8601 date")
  }
}

extension JSONDecoder {
  /// A decoder for the Catalog API's JSON: dates through `CatalogDate`.
  static func catalog() -> JSONDecoder {
    let decoder = JSONDecoder()
    decoder.dateDecodingStrategy = .custom { decoder in
      let container = try decoder.singleValueContainer()
      let text = try container.decode(String.self)
      do {
        return try CatalogDate.parse(text)
      } catch {
        throw DecodingError.dataCorruptedError(in: container, debugDescription: "\(error)")
      }
    }
    return decoder
  }
}
