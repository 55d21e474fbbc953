import Foundation
import LessonSupport

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The real remote data source: the Catalog API over URLSession.
///
/// What it builds, decodes and refuses on the way, and in which types, is yours
/// to design (Docs/02-DataSources.md, Tasks 1 to 4). Where that work runs is
/// Task 7's.
nonisolated struct URLSessionProductRemoteDataSource: ProductRemoteDataSource {
  let baseURL: URL
  let session: URLSession
  /// What reads the bodies: the catalog's decoder unless a test gives another.
  let decoder: JSONDecoder

  init(baseURL: URL, session: URLSession, decoder: JSONDecoder = .catalog()) {
    self.baseURL = baseURL
    self.session = session
    self.decoder = decoder
  }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    throw NotDoneYet(
      "Task 1", in: "Docs/02-DataSources.md", "products(limit:skip:) should fetch one page of the catalog as Products")
  }

  func product(id: Int) async throws -> Product {
    throw NotDoneYet("Task 1", in: "Docs/02-DataSources.md", "product(id:) should fetch one product as a Product")
  }
}
