// Stage 05's coalescing benchmark: 1,000 concurrent identical reads through
// `CachingProductRepository`, and how many network calls they make (goal: 1).
//
// main.swift lists `CoalescingBenchmark.run`; the benchmarks target depends on
// Solution05 (see `timed` in Package.swift).

import Foundation
import Synchronization

@testable import Solution05

enum CoalescingBenchmark {
  /// A network that counts its calls and answers after `latency`, a real wait
  /// (this is a benchmark, not a test), or, with no latency, once `open()` is called.
  private final class CountingRemote: ProductRemoteDataSource {
    let calls = Mutex(0)
    let latency: Duration
    let page: [Product]
    private let gate = Mutex<(isOpen: Bool, held: [CheckedContinuation<Void, Never>])>((false, []))

    init(latency: Duration, page: [Product]) {
      self.latency = latency
      self.page = page
    }

    func open() {
      let held = gate.withLock { gate in
        gate.isOpen = true
        defer { gate.held = [] }
        return gate.held
      }
      for continuation in held { continuation.resume() }
    }

    func products(limit: Int, skip: Int) async throws -> ProductPage {
      calls.withLock { $0 += 1 }
      if latency > .zero {
        try await Task.sleep(for: latency)
      } else {
        await withCheckedContinuation { continuation in
          let isOpen = gate.withLock { gate in
            if !gate.isOpen { gate.held.append(continuation) }
            return gate.isOpen
          }
          if isOpen { continuation.resume() }
        }
      }
      return ProductPage(products: page, total: page.count, skip: skip, limit: limit)
    }

    func product(id: Int) async throws -> Product {
      calls.withLock { $0 += 1 }
      guard let product = page.first(where: { $0.id == id }) else {
        throw RemoteDataSourceError.http(status: 404, message: nil)
      }
      return product
    }
  }

  static let readers = 1_000

  /// Runs `readers` concurrent network-first reads against a fresh repository.
  ///
  /// With no latency the network answers once every reader has joined the
  /// flight: the time is then the cost of coalescing itself.
  /// - Returns: The network calls made and the milliseconds until every reader had its answer.
  static func measure(latency: Duration, page: [Product]) async throws -> (calls: Int, milliseconds: Double) {
    let remote = CountingRemote(latency: latency, page: page)
    let repository = CachingProductRepository(
      remote: remote, store: InMemoryProductCacheStore(), now: { Date() },
      activity: { event in
        // With no latency, the network answers once every reader waits in the list's flight.
        if latency == .zero, case .listCallersWaiting(let waiting) = event, waiting >= readers { remote.open() }
      })
    let start = ContinuousClock.now
    try await withThrowingTaskGroup(of: Int.self) { group in
      for _ in 0..<readers {
        group.addTask { try await repository.products(policy: .networkFirst).value.count }
      }
      for try await count in group where count != page.count {
        throw RemoteDataSourceError.invalidData("a reader got \(count) products")
      }
    }
    let elapsed = ContinuousClock.now - start
    let milliseconds = Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15
    return (remote.calls.withLock { $0 }, milliseconds)
  }

  /// Prints the median of five runs: a network held until every reader has joined, and one of 50 ms.
  static func run() async throws {
    let page = (1...30).map { id in
      Product(
        id: id, title: "Product \(id)", description: "", category: "bench", price: 1, discountPercentage: 0,
        rating: 0, stock: 1, brand: nil, thumbnail: nil, updatedAt: Date(timeIntervalSince1970: 1_746_006_062))
    }
    print("\(readers) concurrent identical reads, network-first, median of 5 runs, release build")
    for latency in [Duration.zero, .milliseconds(50)] {
      var samples: [(calls: Int, milliseconds: Double)] = []
      for _ in 0..<5 { samples.append(try await measure(latency: latency, page: page)) }
      let median = samples.sorted { $0.milliseconds < $1.milliseconds }[2]
      let calls = samples.map(\.calls)
      print(
        String(
          format: "  %@: %6.1f ms for all %d answers; network calls per run: %@",
          latency == .zero ? "network held until all joined" : "network answering in 50 ms  ",
          median.milliseconds, readers, "\(calls)"))
    }
  }
}
