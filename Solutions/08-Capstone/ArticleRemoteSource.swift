import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Where fresh articles come from: the seam the repository's tests could swap.
nonisolated protocol ArticleRemoteSource: Sendable {
  /// Every article the server holds, as domain values.
  /// - Throws: `ArticleError`, or `CancellationError` when the caller was cancelled.
  func articles() async throws -> [Article]
}

/// `GET /articles` through an injected session, with every failure in the domain's words.
nonisolated struct URLSessionArticleRemoteSource: ArticleRemoteSource {
  let baseURL: URL
  let session: URLSession

  func articles() async throws -> [Article] {
    var request = URLRequest(url: baseURL.appendingPathComponent("articles"))
    request.setValue("application/json", forHTTPHeaderField: "Accept")
    let data: Data
    let response: URLResponse
    do {
      (data, response) = try await session.data(for: request)
    } catch {
      throw Self.domainError(for: error)
    }
    // An answer that arrives after the caller gave up is not kept.
    try Task.checkCancellation()
    guard let http = response as? HTTPURLResponse else { throw ArticleError.decoding }
    switch http.statusCode {
    case 200..<300: break
    case 404: throw ArticleError.notFound
    default: throw ArticleError.server(http.statusCode)
    }
    guard let records = try? JSONDecoder().decode([ArticleDTO].self, from: data) else {
      throw ArticleError.decoding
    }
    let articles = records.compactMap { $0.toDomain() }
    guard articles.count == records.count else { throw ArticleError.decoding }
    return articles
  }

  /// Cancellation stays cancellation; every other transport failure means the
  /// app cannot reach the server now.
  static func domainError(for error: any Error) -> any Error {
    if error is CancellationError || (error as? URLError)?.code == .cancelled || Task.isCancelled {
      return CancellationError()
    }
    return ArticleError.offline
  }
}
