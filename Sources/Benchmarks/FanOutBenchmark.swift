// Stage 07's fan-out benchmark: 100 subscribers × 1,000 changes, through
// `ProductBroadcast` alone and through `OfflineProductStore` (one SQLite commit
// per change), counting the values every subscriber received.
//
// main.swift lists `FanOutBenchmark.run` and prints its title; this file needs
// the benchmarks target to depend on Solution07.

import CourseFixtures
import CourseSQLite
import Foundation

@testable import Solution07

enum FanOutBenchmark {
  static let subscribers = 100
  static let changes = 1_000

  static func run() async throws {
    try await broadcastAlone()
    try await throughTheStore()
  }

  /// Integers through the broadcast: the fan-out's own cost.
  static func broadcastAlone() async throws {
    var delivered = 0
    let elapsed = try await medianMilliseconds {
      let broadcast = ProductBroadcast<Int>(0)
      let readers = (0..<subscribers).map { _ in
        let stream = broadcast.subscribe()
        return Task {
          var count = 0
          for await _ in stream { count += 1 }
          return count
        }
      }
      for value in 1...changes { broadcast.publish(value) }
      broadcast.finish()
      var total = 0
      for reader in readers { total += await reader.value }
      delivered = total
    }
    report("broadcast: \(delivered) values delivered", elapsed)
  }

  /// Updates of one product through the store: a commit, a read of the list, and the fan-out, per change.
  static func throughTheStore() async throws {
    let products = try JSONDecoder.catalog().decode([ProductDTO].self, from: ProductFixtures.data).prefix(30)
      .map { try $0.toDomain() }
    var delivered = 0
    let elapsed = try await medianMilliseconds {
      let path = temporaryPath("fanout")
      defer { SQLiteConnection.removeDatabase(atPath: path) }
      let store = try OfflineProductStore(path: path)
      try await store.savePage(ProductPage(products: products, total: 30, skip: 0, limit: 30), fetchedAt: 0)
      var readers: [Task<Int, Never>] = []
      for _ in 0..<subscribers {
        let stream = try await store.observe()
        readers.append(
          Task {
            var count = 0
            for await _ in stream { count += 1 }
            return count
          })
      }
      var product = products[0]
      for change in 1...changes {
        product.stock = change
        try await store.record(.update(product), editedAt: Date(timeIntervalSince1970: Double(change)))
      }
      await store.changes.finish()
      var total = 0
      for reader in readers { total += await reader.value }
      delivered = total
    }
    report("store: \(delivered) lists delivered", elapsed)
  }
}
