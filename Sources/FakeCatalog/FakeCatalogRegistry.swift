import Foundation
import Synchronization

/// Finds the `FakeCatalogAPI` behind a host, so concurrent tests stay apart.
enum FakeCatalogRegistry {
  private struct WeakAPI {
    weak var api: FakeCatalogAPI?
  }

  private static let state = Mutex<(next: Int, apis: [String: WeakAPI])>((0, [:]))

  /// The suffix every fake host ends with; `.test` never resolves on a real network.
  static let hostSuffix = ".test"

  /// A host no other API in the process has used, such as `catalog-3.test`.
  static func makeHost() -> String {
    let number = state.withLock { state in
      state.next += 1
      return state.next
    }
    return "catalog-\(number)\(hostSuffix)"
  }

  static func register(_ api: FakeCatalogAPI, host: String) {
    state.withLock { $0.apis[host] = WeakAPI(api: api) }
  }

  static func unregister(host: String) {
    _ = state.withLock { $0.apis.removeValue(forKey: host) }
  }

  static func api(for url: URL?) -> FakeCatalogAPI? {
    guard let host = url?.host else { return nil }
    return state.withLock { $0.apis[host]?.api }
  }

  static func isFakeHost(_ url: URL?) -> Bool {
    guard let host = url?.host else { return false }
    return host.hasPrefix("catalog-") && host.hasSuffix(hostSuffix)
  }
}
