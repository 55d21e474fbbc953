/// How one read uses the cache and the network. The caller chooses it per call,
/// because the right answer depends on the screen, not on the data.
///
/// | Ours | Apollo iOS 1.x (2.x) | Store5 `StoreReadRequest` |
/// |---|---|---|
/// | `networkFirst` | `fetchIgnoringCacheData`, no fallback (`.networkFirst`) | `fresh(key, fallBackToSourceOfTruth = true)` |
/// | `cacheFirst` | `returnCacheDataElseFetch` (`.cacheFirst`) | `cached(key, refresh = false)` |
/// | `staleWhileRevalidate` | `returnCacheDataAndFetch` (`.cacheAndNetwork`) | `cached(key, refresh = true)` |
/// | `networkOnly` | `fetchIgnoringCacheCompletely` (`.networkOnly`) | none: `fresh` writes through |
/// | `cacheOnly` | `returnCacheDataDontFetch` (`.cacheOnly`) | `localOnly(key)` |
nonisolated enum CachePolicy: Sendable, Hashable, CaseIterable {
  /// Ask the network; store and return its answer. When it fails, return the
  /// cached value within its hard age, marked stale; otherwise the network's error.
  case networkFirst
  /// Return a fresh cached value without asking the network. Otherwise ask the
  /// network; when that fails, return a stale value within its hard age.
  case cacheFirst
  /// Return any cached value within its hard age at once; when it is past its
  /// soft age, refresh it in the background. With nothing usable, wait for the network.
  case staleWhileRevalidate
  /// Ask the network only: never read the cache, never write it.
  case networkOnly
  /// Never ask the network: return the cached value within its hard age, or
  /// throw `CatalogError.nothingCached` (stage 06; stage 05's `CacheError` is gone).
  /// A cached empty list is not that error: it is an answer with no products.
  case cacheOnly
}
