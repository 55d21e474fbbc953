import FakeCatalog
import Foundation
import Testing

@testable import Solution02

/// The source against a fake of the real API: a fake, not a stub, because the
/// seam under test is HTTP itself (status codes, bodies, headers).
struct RemoteSourceTests {
  let api = FakeCatalogAPI()
  var source: URLSessionProductRemoteDataSource {
    URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session)
  }

  @Test func aPageDecodesIntoItsProducts() async throws {
    let page = try await source.products(limit: 3, skip: 0)
    #expect(page.products.map(\.id) == [1, 2, 3])
    let first = try #require(page.products.first)
    #expect(first.title == "Essence Mascara Lash Princess")
    #expect(first.price == Decimal(string: "9.99"))
  }

  @Test func malformedJSONIsADecodingError() async {
    api.inject(.malformedBody, on: .list)
    await #expect {
      _ = try await source.products(limit: 3, skip: 0)
    } throws: { error in
      if case RemoteDataSourceError.decoding = error { return true }
      return false
    }
  }

  @Test func aMissingProductIsA404WithTheServersMessage() async {
    await #expect(
      throws: RemoteDataSourceError.http(status: 404, message: "Product with id '999999' not found")
    ) {
      _ = try await source.product(id: 999_999)
    }
  }

  @Test func aServerErrorIsItsStatusAndMessage() async {
    api.inject(.status(500, message: "Database unavailable"), on: .list)
    await #expect(throws: RemoteDataSourceError.http(status: 500, message: "Database unavailable")) {
      _ = try await source.products(limit: 3, skip: 0)
    }
  }
}
