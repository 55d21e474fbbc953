import CourseFixtures
import FakeCatalog
import Foundation
import Synchronization
import Testing

@testable import CatalogServer

/// The server over real sockets on 127.0.0.1, with a raw client that can send
/// what URLSession never would. Each test has its own server on a free port.
@Suite(.timeLimit(.minutes(1)))
struct CatalogServerTests {
  @Test func servesAPageOfTheRealRecords() async throws {
    try await withServer { server, log in
      let transcript = try #require(await RawClient.exchange(port: server.port, get("/products?limit=3&skip=10")))
      let response = try #require(transcript.responses.first, "no response: \(transcript)")
      #expect(response.status == 200)
      let page = try JSONValue(data: Data(response.body))
      guard case .array(let products) = page["products"] else {
        Issue.record("expected a products array, got \(response.text)")
        return
      }
      #expect(products == Array(ProductFixtures.records[10..<13]), "records 11 to 13, unchanged")
      #expect(page["total"] == .number(194))
      #expect(log.all.map(\.line).first?.hasPrefix("GET /products?limit=3&skip=10 200 ") == true, "\(log.all)")
    }
  }

  @Test func servesTheCapstonesArticlesNewestFirst() async throws {
    try await withServer { server, _ in
      let transcript = try #require(await RawClient.exchange(port: server.port, get("/articles")))
      let response = try #require(transcript.responses.first, "no response: \(transcript)")
      guard case .array(let articles) = try JSONValue(data: Data(response.body)) else {
        Issue.record("expected an array of articles, got \(response.text)")
        return
      }
      #expect(response.status == 200 && articles.count == ArticleFixtures.records.count)
      #expect(articles.first?["id"]?.stringValue == "gift-cards-expiry", "the newest article first")
    }
  }

  @Test func keepsTheConnectionForRequestsSentOneAfterAnother() async throws {
    try await withServer { server, _ in
      let pipelined = get("/products/1") + get("/products/999") + get("/products/2", "Connection: close\r\n")
      let transcript = try #require(await RawClient.exchange(port: server.port, pipelined, responses: 3))
      #expect(transcript.responses.map(\.status) == [200, 404, 200], "three answers on one connection")
      #expect(transcript.responses[1].text == #"{"message":"Product with id '999' not found"}"#)
      #expect(transcript.responses.map { $0.header("Connection") } == ["keep-alive", "keep-alive", "close"])
      #expect(transcript.closedByServer, "Connection: close ends the connection after the answer")
    }
  }

  @Test func answersAMalformedRequestWith400AndCloses() async throws {
    try await withServer { server, log in
      let transcript = try #require(await RawClient.exchange(port: server.port, "GARBAGE\r\n\r\n"))
      #expect(transcript.responses.map(\.status) == [400])
      #expect(transcript.responses.first?.text == #"{"message":"Malformed request line"}"#)
      #expect(transcript.closedByServer)
      #expect(log.all.map(\.line).first?.hasPrefix("- - 400 ") == true, "\(log.all)")
    }
  }

  @Test func refusesTooManyHeadersAndTooLargeBodies() async throws {
    try await withServer { server, _ in
      let fields = (0..<120).map { "X-\($0): y\r\n" }.joined()
      let headers = try #require(await RawClient.exchange(port: server.port, get("/products", fields)))
      #expect(headers.responses.map(\.status) == [431])
      let body = "POST /products/add HTTP/1.1\r\nHost: a\r\nContent-Length: 2000000\r\n\r\n"
      let large = try #require(await RawClient.exchange(port: server.port, body))
      #expect(large.responses.map(\.status) == [413], "refused from the head, before any body is read")
    }
  }

  @Test func sendsContinueBeforeReadingABodyThatWaitsForIt() async throws {
    try await withServer { server, _ in
      let head = "POST /products/add HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 18\r\n\r\n"
      let transcript = try #require(
        await RawClient.exchange(port: server.port, [Array(head.utf8), Array(#"{"title":"Kettle"}"#.utf8)]))
      #expect(transcript.responses.map(\.status) == [201])
      let id = try JSONValue(data: Data(transcript.responses[0].body))["id"]?.numberValue
      #expect((id ?? 0) > 194, "the server's id, above every id it holds, got \(id.map { "\($0)" } ?? "none")")
    }
  }

  @Test func repeatedIdempotencyKeysApplyOnce() async throws {
    try await withServer { server, _ in
      let add =
        "POST /products/add HTTP/1.1\r\nHost: a\r\nIdempotency-Key: k-1\r\nContent-Length: 18\r\n\r\n"
        + #"{"title":"Kettle"}"#
      let transcript = try #require(await RawClient.exchange(port: server.port, add + add, responses: 2))
      #expect(transcript.responses.map(\.status) == [201, 201])
      #expect(transcript.responses.first?.body == transcript.responses.last?.body, "the same answer twice")
      #expect(transcript.responses.last?.header("Idempotent-Replayed") == "true")
      #expect(server.responder.products.count == 195, "one product added")
    }
  }

  @Test func survivesRandomBytesAndStillAnswers() async throws {
    try await withServer { server, _ in
      var random = SplitMix64(seed: 2026)
      for _ in 0..<40 {
        let junk = (0..<Int.random(in: 1...3000, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let transcript = await RawClient.exchange(port: server.port, [junk], responses: 1, finish: true)
        if let status = transcript?.responses.first?.status {
          #expect([400, 413, 431, 501, 505].contains(status), "junk is refused, got \(status)")
        }
      }
      // Requests that parse, with random targets and bodies: answered, never fatal.
      let printable = Array(UInt8(33)...UInt8(126))
      for _ in 0..<60 {
        let path = (0..<Int.random(in: 0...40, using: &random)).map { _ in printable.randomElement(using: &random) ?? 47
        }
        let body = (0..<Int.random(in: 0...64, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        let method = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "BREW"].randomElement(using: &random) ?? "GET"
        let head =
          "\(method) /products/\(String(decoding: path, as: UTF8.self)) HTTP/1.1\r\nHost: a\r\n"
          + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        let transcript = await RawClient.exchange(port: server.port, [Array(head.utf8) + body], responses: 1)
        #expect(transcript?.closedByServer == true, "\(head.debugDescription) is answered and closed")
      }
      let after = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(after.responses.map(\.status) == [200], "the server still answers after the junk")
    }
  }

  @Test func offlineRefusesConnectionsUntilOnline() async throws {
    try await withServer { server, _ in
      let port = server.port
      #expect(server.perform(.offline(seconds: nil)).hasPrefix("Offline"))
      #expect(await RawClient.isRefused(port: port), "offline: the port is closed")
      #expect(server.perform(.online).hasPrefix("Online"))
      let transcript = try #require(await RawClient.exchange(port: port, get("/products/1")))
      #expect(transcript.responses.map(\.status) == [200], "online again on the same port")
    }
  }

  @Test func startsOfflineWhenConfiguredSo() async throws {
    try await withServer(offline: true) { server, _ in
      #expect(server.port != 0, "the port is chosen even offline")
      #expect(await RawClient.isRefused(port: server.port))
    }
  }

  @Test func whenFullItClosesTheIdleConnectionForANewOne() async throws {
    let configuration = CatalogServer.Configuration(port: 0, maxConnections: 1)
    try await CatalogServer.withRunning(configuration) { server in
      let port = server.port
      // The server accepts in arrival order, so the held connection is the one admitted.
      let held = try #require(await offThePool { Socket.connect(toLoopbackPort: port).map(HeldSocket.init) })
      let second = try #require(await RawClient.exchange(port: port, get("/products/1")))
      #expect(second.responses.map(\.status) == [200], "the idle connection made room for the new one")
      #expect(await offThePool { Self.closedByServer(held.socket, within: .seconds(2)) })
    }
  }

  /// More slow clients than the cap, each sending its request a byte at a time,
  /// and idle ones: a normal GET still gets its answer.
  @Test func slowAndIdleClientsPastTheCapDoNotLockANormalRequestOut() async throws {
    let configuration = CatalogServer.Configuration(port: 0, maxConnections: 4)
    try await CatalogServer.withRunning(configuration) { server in
      let port = server.port
      let held: [HeldSocket] = await offThePool {
        (0..<6).compactMap { index in
          guard let socket = Socket.connect(toLoopbackPort: port) else { return nil }
          // Half of them start a request and never finish it; the others say nothing.
          if index.isMultiple(of: 2) { socket.send(Array("GET /products/1 HTTP/1.1\r\nHo".utf8)) }
          return HeldSocket(socket)
        }
      }
      #expect(held.count == 6)
      let answer = try #require(await RawClient.exchange(port: port, get("/products/1")))
      #expect(answer.responses.map(\.status) == [200], "\(answer)")
      withExtendedLifetime(held) {}
    }
  }

  @Test func whenEveryConnectionIsBeingAnsweredANewOneGets503AtOnce() async throws {
    let configuration = CatalogServer.Configuration(port: 0, stallLimit: .seconds(5), maxConnections: 1)
    try await CatalogServer.withRunning(configuration) { server in
      let port = server.port
      server.responder.inject(.timeout, times: 1)
      let stalled = try #require(
        await offThePool { () -> HeldSocket? in
          guard let socket = Socket.connect(toLoopbackPort: port) else { return nil }
          socket.send(Array(get("/products/1").utf8))
          return HeldSocket(socket)
        })
      // The stalled request is being answered once the server has read it.
      let deadline = ContinuousClock.now + .seconds(2)
      while !server.state.withLock({ $0.connections.values.contains(.answering) }), ContinuousClock.now < deadline {
        try await Task.sleep(for: .milliseconds(10))
      }
      let refused = try #require(await RawClient.exchange(port: port, get("/products/1")))
      #expect(refused.responses.map(\.status) == [503], "\(refused)")
      #expect(refused.responses.first?.header("Retry-After") == "1")
      // At once: the first connection is still being answered (its stall lasts 5 s), so no timeout freed it.
      #expect(
        server.state.withLock { $0.connections.values.contains(.answering) },
        "the 503 should come while the first connection is still being answered, not after its stall ended")
      withExtendedLifetime(stalled) {}
    }
  }

  /// A byte every 50 ms keeps a connection from idling out, but not past the request's deadline.
  @Test func aRequestHeadHasADeadlineAsAWhole() async throws {
    let configuration = CatalogServer.Configuration(port: 0, requestTimeout: .milliseconds(300))
    try await CatalogServer.withRunning(configuration) { server in
      let port = server.port
      let closedAfter: Duration? = await offThePool {
        guard let socket = Socket.connect(toLoopbackPort: port) else { return nil }
        let started = ContinuousClock.now
        for byte in Array("GET /products/1 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ".utf8)
          + Array(repeating: 97, count: 200)
        {
          guard socket.send([byte]) else { return ContinuousClock.now - started }
          if socket.waitReadable(milliseconds: 50) == .readable {
            var scratch: [UInt8] = []
            if socket.receive(into: &scratch) == 0 { return ContinuousClock.now - started }
          }
        }
        return nil
      }
      let after = try #require(closedAfter, "the server kept a request that trickled in for 10 s")
      #expect(after < .seconds(2))
    }
  }

  /// Whether the server closes `socket` within `limit`.
  static func closedByServer(_ socket: Socket, within limit: Duration) -> Bool {
    let deadline = ContinuousClock.now + limit
    var scratch: [UInt8] = []
    while ContinuousClock.now < deadline {
      guard socket.waitReadable(milliseconds: 50) == .readable else { continue }
      if socket.receive(into: &scratch) == 0 { return true }
    }
    return false
  }

  @Test func stopClosesThePort() async throws {
    let server = CatalogServer(CatalogServer.Configuration(port: 0))
    try server.start()
    let port = server.port
    server.stop()
    server.stop()
    #expect(await RawClient.isRefused(port: port))
  }

  @Test func faultsChangeWhatTheWireCarries() async throws {
    try await withServer { server, log in
      server.responder.inject(.truncatedBody, times: 1)
      let cut = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(cut.responses.isEmpty && cut.closedByServer, "a body cut short is no complete response")
      let promised = try #require(RawClient.parse(cut.leftover).leftover.isEmpty ? nil : cut.leftover)
      #expect(String(decoding: promised, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK"))

      server.responder.inject(.offline, times: 1)
      let dropped = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(dropped.responses.isEmpty && dropped.closedByServer && dropped.leftover.isEmpty, "closed, no byte")

      _ = server.perform(.inject(.status(429, headers: ["Retry-After": "7"]), times: 1))
      let limited = try #require(await RawClient.exchange(port: server.port, get("/products")))
      #expect(limited.responses.first?.status == 429)
      #expect(limited.responses.first?.header("Retry-After") == "7")
      #expect(log.all.map(\.result).prefix(2) == [.cut(status: 200, sent: 755, promised: 1510), .closed])
    }
  }

  /// Waits 200 ms on the real clock: the server's own latency is what is tested.
  @Test func latencyDelaysEveryAnswer() async throws {
    try await withServer { server, log in
      #expect(server.perform(.latency(.milliseconds(200))) == "Every answer now waits 200 ms.")
      let transcript = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(transcript.responses.map(\.status) == [200])
      let took = try #require(log.all.first?.duration)
      #expect(took >= .milliseconds(200), "the answer waited at least 200 ms, took \(took)")
    }
  }

  @Test func failRateOneFailsEveryRequestAndZeroNone() async throws {
    try await withServer(failRate: 1) { server, _ in
      let failing = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(failing.responses.map(\.status) == [500])
      _ = server.perform(.failRate(0))
      let fine = try #require(await RawClient.exchange(port: server.port, get("/products/1")))
      #expect(fine.responses.map(\.status) == [200])
    }
  }

  @Test func theAdminRouteTakesTheTerminalsCommands() async throws {
    try await withServer { server, _ in
      let post = "POST /__admin HTTP/1.1\r\nHost: a\r\nContent-Length: 12\r\n\r\nstatus 503 1"
      let transcript = try #require(await RawClient.exchange(port: server.port, post + get("/products"), responses: 2))
      #expect(transcript.responses.map(\.status) == [200, 503], "the command applies to the next request")
      let bad = "POST /__admin HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nnope!"
      let refused = try #require(await RawClient.exchange(port: server.port, bad + get("/__admin"), responses: 2))
      #expect(refused.responses.map(\.status) == [400, 200])
      #expect(refused.responses.last?.text.contains("latency MS") == true, "GET /__admin lists the commands")
    }
  }

  @Test func manyClientsAtOnceAllGetTheirAnswers() async throws {
    try await withServer { server, _ in
      let port = server.port
      let statuses = await withTaskGroup(of: [Int].self) { group in
        for id in 1...30 {
          group.addTask {
            let text = get("/products/\(id)") + get("/products/\(id + 30)", "Connection: close\r\n")
            return await RawClient.exchange(port: port, text, responses: 2)?.responses.map(\.status) ?? []
          }
        }
        return await group.reduce(into: []) { $0 += $1 }
      }
      #expect(statuses.count == 60 && statuses.allSatisfy { $0 == 200 }, "60 answers, got \(statuses.count)")
    }
  }
}
