import FakeCatalog
import Foundation
import Testing

@testable import CatalogServer

/// Another app on the server's sockets (`Application.custom`, what `course classroom` uses), and its address.
struct ApplicationTests {
  @Test(.timeLimit(.minutes(1))) func aCustomAppAnswersEveryRequestWithTheSameParsingAndLimits() async throws {
    var limits = HTTPLimits()
    limits.maxBodyBytes = 16
    let configuration = CatalogServer.Configuration(
      port: 0, limits: limits,
      application: .custom { head, body in
        Reply(
          status: 200, headers: ["Content-Type": "text/plain"],
          body: Data("\(head.method) \(head.target) \(body.count)".utf8))
      })
    try await CatalogServer.withRunning(configuration) { server in
      let answered = try #require(
        await RawClient.exchange(
          port: server.port, "POST /anything?x=1 HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"))
      #expect(answered.responses.first?.status == 200)
      #expect(answered.responses.first?.text == "POST /anything?x=1 3", "the app got the head and the body")
      let products = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(products.responses.first?.text == "GET /products/1 0", "the Catalog API is not served beside it")
      let large = try #require(
        await RawClient.exchange(port: server.port, "POST /x HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n"))
      #expect(large.responses.first?.status == 413, "the body limit holds before the app sees the request")
      let broken = try #require(await RawClient.exchange(port: server.port, "NOT HTTP\r\n\r\n"))
      #expect(broken.responses.first?.status == 400, "so does the parser")
    }
  }

  @Test func refusesAnAddressThatIsNotIPv4() {
    let server = CatalogServer(.init(port: 0, address: "localhost"))
    #expect {
      try server.start()
    } throws: { error in
      guard case .cannotListen(_, let reason) = error as? CatalogServerError else { return false }
      return reason.contains("not an IPv4 address")
    }
  }

  @Test func saysWhetherAPortIsFree() throws {
    let server = CatalogServer(.init(port: 0))
    try server.start()
    defer { server.stop() }
    #expect(!CatalogServer.canListen(port: server.port), "a port a server listens on is taken")
  }
}
