import CourseFixtures
import FakeCatalog
import Foundation
import Testing

@testable import CatalogServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Cancelling a request through a real `URLSession` at any point of `course
/// serve`'s answer never crashes either side, and the server goes on answering.
///
/// The fake session's own stress test (FakeCatalogTests, `CancellationStressTests`)
/// covers the in-process fake; this one covers real sockets, where a cancel can
/// land before the connection, during the head, in the middle of a large body,
/// or after the answer.
///
/// It cancels the `URLSessionTask` itself rather than a Swift task awaiting
/// `data(from:)`: on Linux, swift-corelibs-foundation up to Swift 6.3 can
/// deadlock when a Swift task awaiting `URLSession.data(...)` is cancelled while
/// the answer arrives (swift-corelibs-foundation issue 5412, fixed by pull
/// request 5417). This test found it: the first version hung for an hour in
/// `URLSessionTask.cancel()`. Docs/Setup.md says so for learners.
@Suite(.timeLimit(.minutes(3)))
struct CancellationOverSocketTests {
  /// `COURSE_CANCELS` requests in 4 lanes (CI runs 10,000 in a step of its
  /// own, about a minute on 2 cores), two of every three cancelled after 0 to 63
  /// yields; a third of them ask for the whole catalog, so a cancel can cut a
  /// body of about 140 KB.
  ///
  /// It runs only when `COURSE_CANCELS` is set: thousands of connections use up
  /// ephemeral ports, and a server test beside it that closes its port and opens
  /// it again (`offlineRefusesConnectionsUntilOnline`) then finds the port taken.
  @Test(.enabled(if: cancelCount != nil, "set COURSE_CANCELS=N to run it; CI runs 10,000"))
  func requestsCancelledAtRandomPointsNeverCrash() async throws {
    let count = cancelCount ?? 0
    try await withServer { server, _ in
      let configuration = URLSessionConfiguration.ephemeral
      configuration.urlCache = nil
      configuration.timeoutIntervalForRequest = 30
      let session = URLSession(configuration: configuration)
      defer { session.finishTasksAndInvalidate() }
      let base = server.baseURL
      let urls = [
        base.appendingPathComponent("products/1"),
        URL(string: "products?limit=30", relativeTo: base)!.absoluteURL,
        URL(string: "products?limit=0", relativeTo: base)!.absoluteURL,
      ]
      let lanes = 4
      let tallies = await withTaskGroup(of: Tally.self) { group in
        for lane in 0..<lanes {
          group.addTask {
            var generator = SplitMix64(seed: UInt64(lane + 1))
            var tally = Tally()
            for round in 0..<(count / lanes) {
              let url = urls[Int(generator.next() % 3)]
              let (ended, end) = AsyncStream.makeStream(of: Result<(Data, URLResponse), any Error>.self)
              let task = session.dataTask(with: url) { data, response, error in
                if let data, let response {
                  end.yield(.success((data, response)))
                } else {
                  end.yield(.failure(error ?? URLError(.unknown)))
                }
                end.finish()
              }
              task.resume()
              if round % 3 != 0 {
                for _ in 0..<Int(generator.next() % 64) { await Task.yield() }
                task.cancel()
              }
              for await result in ended { tally.count(result) }
            }
            return tally
          }
        }
        return await group.reduce(into: Tally()) { $0.add($1) }
      }
      #expect(
        tallies.answered + tallies.cancelled == count / lanes * lanes && tallies.answered >= count / lanes / 3 * lanes
          && tallies.other.isEmpty,
        "every request ends as a whole 200 or as URLError(.cancelled): \(tallies.answered) answered, \(tallies.cancelled) cancelled, others: \(tallies.other.prefix(5))"
      )
      // The server is still there and whole.
      let (data, response) = try await session.data(from: urls[2])
      let page = try JSONValue(data: data)
      #expect((response as? HTTPURLResponse)?.statusCode == 200 && page["total"] == .number(194))
    }
  }
}

/// How many requests `requestsCancelledAtRandomPointsNeverCrash` sends, from `COURSE_CANCELS`.
private let cancelCount = ProcessInfo.processInfo.environment["COURSE_CANCELS"].flatMap(Int.init)

/// How the requests of one lane ended.
private struct Tally: Sendable {
  var answered = 0
  var cancelled = 0
  var other: [String] = []

  mutating func count(_ result: Result<(Data, URLResponse), any Error>) {
    switch result {
    case .success(let (data, response)):
      if (response as? HTTPURLResponse)?.statusCode == 200, (try? JSONValue(data: data)) != nil {
        answered += 1
      } else {
        other.append("\(response), \(data.count) bytes")
      }
    case .failure(let error as URLError) where error.code == .cancelled:
      cancelled += 1
    case .failure(let error):
      other.append("\(error)")
    }
  }

  mutating func add(_ other: Tally) {
    answered += other.answered
    cancelled += other.cancelled
    self.other += other.other
  }
}
