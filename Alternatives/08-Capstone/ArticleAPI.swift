import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The server, as a struct of closures instead of a protocol: a test (or a
/// preview) swaps the closure, not the type.
nonisolated struct ArticleAPI: Sendable {
  var fetchLatest: @Sendable () async throws -> [Article]

  /// `GET /articles` through `session`, with every failure in the domain's words.
  static func live(baseURL: URL, session: URLSession) -> ArticleAPI {
    ArticleAPI {
      let data: Data
      let response: URLResponse
      do {
        (data, response) = try await session.data(from: baseURL.appendingPathComponent("articles"))
      } catch {
        if Task.isCancelled || (error as? URLError)?.code == .cancelled { throw CancellationError() }
        throw ArticleError.offline
      }
      try Task.checkCancellation()
      switch (response as? HTTPURLResponse)?.statusCode {
      case (200..<300)?: break
      case 404?: throw ArticleError.notFound
      case let status?: throw ArticleError.server(status)
      case nil: throw ArticleError.decoding
      }
      do {
        return try decoder.decode([Wire].self, from: data).map(\.article)
      } catch {
        throw ArticleError.decoding
      }
    }
  }

  /// The JSON's shape: snake case converted by the decoder, the date by a strategy that takes both forms.
  private struct Wire: Decodable {
    let id: String
    let title: String
    let body: String
    let updatedAt: Date

    var article: Article { Article(id: id, title: title, body: body, updatedAt: updatedAt) }
  }

  private static let decoder: JSONDecoder = {
    let decoder = JSONDecoder()
    decoder.keyDecodingStrategy = .convertFromSnakeCase
    decoder.dateDecodingStrategy = .custom { decoder in
      let text = try decoder.singleValueContainer().decode(String.self)
      if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
      if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
      throw DecodingError.dataCorrupted(
        .init(codingPath: decoder.codingPath, debugDescription: "not ISO 8601: \(text)"))
    }
    return decoder
  }()
}
