import CourseClock
import Foundation
import Synchronization
import Testing

@testable import FakeCatalog

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Once URLSession has stopped a request, the URL protocol must not call its client again.
struct FakeCatalogURLProtocolTests {
  /// Records what the URL protocol tells URLSession, and can stop the request from inside a callback.
  final class SpyClient: NSObject, URLProtocolClient, @unchecked Sendable {
    /// `@unchecked Sendable`: every stored value is behind the Mutex or set before the protocol starts.
    private let log = Mutex<[String]>([])
    var onResponse: () -> Void = {}

    var events: [String] { log.withLock { $0 } }

    func urlProtocol(
      _ protocol: URLProtocol, didReceive response: URLResponse, cacheStoragePolicy: URLCache.StoragePolicy
    ) {
      log.withLock { $0.append("response") }
      onResponse()
    }
    func urlProtocol(_ protocol: URLProtocol, didLoad data: Data) { log.withLock { $0.append("data") } }
    func urlProtocolDidFinishLoading(_ protocol: URLProtocol) { log.withLock { $0.append("finish") } }
    func urlProtocol(_ protocol: URLProtocol, didFailWithError error: any Error) {
      log.withLock { $0.append("failure") }
    }
    func urlProtocol(_ protocol: URLProtocol, wasRedirectedTo request: URLRequest, redirectResponse: URLResponse) {
      log.withLock { $0.append("redirect") }
    }
    func urlProtocol(_ protocol: URLProtocol, cachedResponseIsValid cachedResponse: CachedURLResponse) {
      log.withLock { $0.append("cached") }
    }
    func urlProtocol(_ protocol: URLProtocol, didReceive challenge: URLAuthenticationChallenge) {
      log.withLock { $0.append("challenge") }
    }
    func urlProtocol(_ protocol: URLProtocol, didCancel challenge: URLAuthenticationChallenge) {
      log.withLock { $0.append("cancelled challenge") }
    }
  }

  let reply = FakeCatalogAPI.Outcome.reply(Reply(status: 200, body: Data("{}".utf8)))

  /// A URL protocol for one request, talking to a spy instead of URLSession.
  func makeLoader() throws -> (FakeCatalogURLProtocol, SpyClient, URL) {
    let url = try #require(URL(string: "https://catalog-0.test/products/1"))
    let client = SpyClient()
    return (FakeCatalogURLProtocol(request: URLRequest(url: url), cachedResponse: nil, client: client), client, url)
  }

  @Test func aStoppedRequestDeliversNothing() throws {
    let (loader, client, url) = try makeLoader()
    loader.stopLoading()
    loader.deliver(reply, for: url)
    loader.deliver(.failure(URLError(.timedOut)), for: url)
    #expect(client.events.isEmpty, "after stopLoading the client must hear nothing, got \(client.events)")
  }

  @Test func aClientThatStopsInsideACallbackHearsNothingMore() throws {
    let (loader, client, url) = try makeLoader()
    client.onResponse = { loader.stopLoading() }
    loader.deliver(reply, for: url)
    #expect(client.events == ["response"], "stopped after the response, got \(client.events)")
  }

  /// Many requests whose answer arrives while URLSession cancels them: each
  /// ends as a whole answer or as `URLError(.cancelled)`, never as a mix.
  @Test func manyRequestsCancelledWhileTheyAreAnsweredEndCleanly() async throws {
    let clock = TestClock()
    let api = FakeCatalogAPI(clock: clock)
    api.inject(.latency(.seconds(1)))
    let count = 64
    let requests = (0..<count).map { index in
      Task { try await api.session.data(from: api.baseURL.appendingPathComponent("products/\(index % 30 + 1)")) }
    }
    let allDone = Task { for request in requests { _ = await request.result } }
    let slept = await clock.waitForSleepers(count: count, whileRunning: allDone)
    #expect(slept, "every request should wait on the clock before it is answered")
    // Answers and cancellations race: the clock wakes every request while each is cancelled.
    await withTaskGroup(of: Void.self) { group in
      group.addTask { clock.advance(by: .seconds(1)) }
      for request in requests { group.addTask { request.cancel() } }
    }
    for request in requests {
      switch await request.result {
      case .success(let (data, response)):
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty, "a whole answer, got \(response)")
      case .failure(let error):
        #expect((error as? URLError)?.code == .cancelled, "a cancelled request fails with .cancelled, got \(error)")
      }
    }
    #expect(api.requests.count == count, "every request reached the API")
  }
}

/// Cancelling a request at any point of its answer never crashes the process:
/// URLSession's own `cancel()` calls the client too, and the fake must not let
/// that second ending reach a task its answer has already finished.
@Suite(.timeLimit(.minutes(2)))
struct CancellationStressTests {
  /// 10,000 requests, two of every three cancelled after 0 to 6 yields, so the
  /// cancel lands before, during and after the fake's answer.
  @Test func tenThousandRequestsCancelledAtRandomPointsNeverCrash() async throws {
    let api = FakeCatalogAPI()
    let url = api.baseURL.appendingPathComponent("products/1")
    var generator = SplitMix64(seed: 42)
    var answered = 0
    var cancelled = 0
    for round in 0..<10_000 {
      let request = Task { try await api.session.data(from: url) }
      if round % 3 != 0 {
        for _ in 0..<Int(generator.next() % 7) { await Task.yield() }
        request.cancel()
      }
      switch await request.result {
      case .success(let (data, response)):
        #expect((response as? HTTPURLResponse)?.statusCode == 200 && !data.isEmpty, "a whole answer, got \(response)")
        answered += 1
      case .failure(let error):
        #expect((error as? URLError)?.code == .cancelled, "a cancelled request fails with .cancelled, got \(error)")
        cancelled += 1
      }
    }
    #expect(answered + cancelled == 10_000 && answered >= 3_334, "\(answered) answered, \(cancelled) cancelled")
  }
}
