import Foundation

/// The app's repository: it answers from memory, from the disk store or from the
/// network, as the caller's `CachePolicy` and the data's `MaxAge` decide.
///
/// - Memory answers repeat reads without touching the disk store.
/// - A network answer is written through to memory and disk; a failed disk write
///   is reported through `diagnostics`, never thrown.
/// - Concurrent identical network requests share one call (`RequestCoalescer`).
/// - Background refreshes belong to the repository: `cancelRevalidations()`
///   stops them, and so does letting the repository go, since none holds it.
/// - Wall-clock time comes from `now`, never from `Date()`, so tests set it.
actor CachingProductRepository {
  /// How many products the list screen shows.
  static let pageSize = 30

  /// What a network request is for; identical ones share one call.
  enum Resource: Hashable, Sendable {
    case list
    case product(id: Int)
  }

  /// A network request: the resource, and whether its answer is written to the cache.
  struct Fetch: Hashable, Sendable {
    var resource: Resource
    var storing: Bool
  }

  private let remote: any ProductRemoteDataSource
  private let store: any ProductCacheStore
  private let lifetimes: CacheLifetimes
  private let now: @Sendable () -> Date
  private let diagnostics: @Sendable (CacheDiagnostic) -> Void
  private let activity: @Sendable (CacheActivity) -> Void

  // The memory tier.
  private var memoryList: CacheEntry<[Product]>?
  // At most `memoryCapacity` products; the least recently used goes first.
  private var memoryProducts: ProductMemory

  /// The network requests in flight; how many callers wait in them goes to `activity`.
  private let listFlights: RequestCoalescer<Fetch, CacheEntry<[Product]>>
  private let productFlights: RequestCoalescer<Fetch, CacheEntry<Product>>

  /// The background refreshes running now, one per resource at most; each
  /// start and end goes to `activity`.
  private var revalidations: [Resource: Task<Void, Never>] = [:] {
    didSet {
      for (resource, refresh) in oldValue where revalidations[resource] != refresh {
        activity(.revalidationEnded(resource))
      }
      for (resource, refresh) in revalidations where oldValue[resource] != refresh {
        activity(.revalidationStarted(resource))
      }
    }
  }

  /// - Parameters:
  ///   - remote: The network.
  ///   - store: The disk tier.
  ///   - lifetimes: The soft and hard ages of each kind of data.
  ///   - now: The current wall-clock time.
  ///   - diagnostics: Hears what went wrong without failing the call.
  ///   - activity: Hears the background refreshes start and end, and how many
  ///     callers share a request; nothing by default.
  ///   - memoryCapacity: How many products the memory tier keeps at most; past
  ///     it, the least recently used one leaves memory (the disk still has it).
  init(
    remote: any ProductRemoteDataSource,
    store: any ProductCacheStore,
    lifetimes: CacheLifetimes = .standard,
    now: @escaping @Sendable () -> Date,
    diagnostics: @escaping @Sendable (CacheDiagnostic) -> Void = { _ in },
    activity: @escaping @Sendable (CacheActivity) -> Void = { _ in },
    memoryCapacity: Int = 1_000
  ) {
    self.remote = remote
    self.store = store
    self.lifetimes = lifetimes
    self.now = now
    self.diagnostics = diagnostics
    self.activity = activity
    self.memoryProducts = ProductMemory(capacity: memoryCapacity)
    self.listFlights = RequestCoalescer { activity(.listCallersWaiting($0)) }
    self.productFlights = RequestCoalescer { activity(.productCallersWaiting($0)) }
  }

  /// Nobody can read what a refresh still running would bring: stop it. None
  /// holds the repository, so this runs while they wait for the network.
  deinit {
    for refresh in revalidations.values { refresh.cancel() }
  }

  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]> {
    try await answer(
      .list, policy: policy, maxAge: lifetimes.list,
      cached: { try await self.cachedList() },
      fetch: fetchList())
  }

  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product> {
    try await answer(
      .product(id: id), policy: policy, maxAge: lifetimes.product,
      cached: { try await self.cachedProduct(id: id) },
      fetch: fetchProduct(id: id))
  }

  /// Cancels every background refresh running now, as when the screen or the
  /// session that wanted them ends. Each ends without writing and without a
  /// `.revalidationFailed`; a later stale read starts a new one.
  func cancelRevalidations() {
    for refresh in revalidations.values { refresh.cancel() }
  }

  // MARK: Task 3: read through memory, then disk

  /// The cached list and the tier it came from: memory when it holds one,
  /// otherwise the disk store, whose entry is then kept in memory.
  ///
  /// A failed disk read counts as a miss and is reported as `.readFailed`.
  func cachedList() async throws -> (entry: CacheEntry<[Product]>, origin: Origin)? {
    if let memoryList { return (memoryList, .memory) }
    do {
      guard let entry = try await store.cachedList() else { return nil }
      keepInMemory(list: entry)
      return (entry, .disk)
    } catch {
      diagnostics(.readFailed(error))
      return nil
    }
  }

  /// The cached product and its tier, found alone or in a cached list.
  func cachedProduct(id: Int) async throws -> (entry: CacheEntry<Product>, origin: Origin)? {
    if let entry = memoryProducts[id] { return (entry, .memory) }
    do {
      guard let entry = try await store.cachedProduct(id: id) else { return nil }
      keepInMemory(product: entry)
      return (entry, .disk)
    } catch {
      diagnostics(.readFailed(error))
      return nil
    }
  }

  /// Keeps a list, and each of its products, in memory unless memory holds something newer.
  private func keepInMemory(list entry: CacheEntry<[Product]>) {
    guard memoryList.map({ $0.fetchedAt <= entry.fetchedAt }) ?? true else { return }
    memoryList = entry
    for product in entry.value {
      keepInMemory(product: CacheEntry(value: product, fetchedAt: entry.fetchedAt))
    }
  }

  private func keepInMemory(product entry: CacheEntry<Product>) {
    guard memoryProducts[entry.value.id].map({ $0.fetchedAt <= entry.fetchedAt }) ?? true else { return }
    memoryProducts[entry.value.id] = entry
  }

  // MARK: Task 4: write through, and never hide a network answer

  /// Keeps a network answer in memory and writes it to the disk store; a failed
  /// write is reported as `.writeFailed`, never thrown.
  func remember(list entry: CacheEntry<[Product]>) async throws {
    keepInMemory(list: entry)
    do {
      try await store.saveList(entry.value, fetchedAt: entry.fetchedAt)
    } catch {
      diagnostics(.writeFailed(error))
    }
  }

  func remember(product entry: CacheEntry<Product>) async throws {
    keepInMemory(product: entry)
    do {
      try await store.saveProduct(entry.value, fetchedAt: entry.fetchedAt)
    } catch {
      diagnostics(.writeFailed(error))
    }
  }

  // MARK: Task 5: decide by policy

  /// The one place the policies are decided, for every kind of data.
  ///
  /// - Parameters:
  ///   - cached: Reads the cache: the entry and its tier, or `nil`.
  ///   - fetch: Asks the network; `true` writes the answer through to the cache.
  private func answer<Value: Sendable>(
    _ resource: Resource,
    policy: CachePolicy,
    maxAge: MaxAge,
    cached: () async throws -> (entry: CacheEntry<Value>, origin: Origin)?,
    fetch: @escaping @Sendable (_ storing: Bool) async throws -> CacheEntry<Value>
  ) async throws -> RepositoryAnswer<Value> {
    switch policy {
    case .networkOnly:
      return Self.fromNetwork(try await fetch(false))
    case .cacheOnly:
      guard let usable = try await servable(cached, maxAge: maxAge) else { throw CacheError.nothingCached }
      return usable
    case .networkFirst:
      do {
        return Self.fromNetwork(try await fetch(true))
      } catch {
        guard !(error is CancellationError), !Task.isCancelled else { throw error }
        guard var fallback = try await servable(cached, maxAge: maxAge) else { throw error }
        fallback.isStale = true
        return fallback
      }
    case .cacheFirst:
      let usable = try await servable(cached, maxAge: maxAge)
      if let usable, !usable.isStale { return usable }
      do {
        return Self.fromNetwork(try await fetch(true))
      } catch {
        guard !(error is CancellationError), !Task.isCancelled, let usable else { throw error }
        return usable
      }
    case .staleWhileRevalidate:
      if let usable = try await servable(cached, maxAge: maxAge) {
        if usable.isStale { try revalidate(resource, fetch: fetch) }
        return usable
      }
      return Self.fromNetwork(try await fetch(true))
    }
  }

  /// The cached value as an answer, unless it is missing or past its hard age.
  private func servable<Value: Sendable>(
    _ cached: () async throws -> (entry: CacheEntry<Value>, origin: Origin)?,
    maxAge: MaxAge
  ) async throws -> RepositoryAnswer<Value>? {
    guard let (entry, origin) = try await cached() else { return nil }
    switch maxAge.freshness(fetchedAt: entry.fetchedAt, now: now()) {
    case .fresh: return RepositoryAnswer(value: entry.value, origin: origin, fetchedAt: entry.fetchedAt, isStale: false)
    case .stale: return RepositoryAnswer(value: entry.value, origin: origin, fetchedAt: entry.fetchedAt, isStale: true)
    case .expired: return nil
    }
  }

  private static func fromNetwork<Value>(_ entry: CacheEntry<Value>) -> RepositoryAnswer<Value> {
    RepositoryAnswer(value: entry.value, origin: .network, fetchedAt: entry.fetchedAt, isStale: false)
  }

  // MARK: Task 6: revalidate in the background

  /// Starts one background refresh of `resource`, unless one is already running.
  ///
  /// The refresh holds the repository weakly, as `fetch` does, so `deinit` can
  /// cancel it; a cancelled refresh did not fail, and is not reported.
  private func revalidate<Value: Sendable>(
    _ resource: Resource,
    fetch: @escaping @Sendable (_ storing: Bool) async throws -> CacheEntry<Value>
  ) throws {
    guard revalidations[resource] == nil else { return }
    revalidations[resource] = Task { [weak self, diagnostics] in
      do {
        _ = try await fetch(true)
      } catch {
        if !(error is CancellationError), !Task.isCancelled { diagnostics(.revalidationFailed(error)) }
      }
      await self?.revalidationEnded(resource)
    }
  }

  /// Forgets the refresh of `resource`, which has ended, so a later stale read may start another.
  private func revalidationEnded(_ resource: Resource) {
    revalidations[resource] = nil
  }

  // MARK: Task 7: share one request

  /// The list's network request, shared through `listFlights` with identical ones.
  ///
  /// The closure holds the flights and the download, never `self`: a
  /// background refresh runs it without keeping the repository alive.
  private nonisolated func fetchList() -> @Sendable (_ storing: Bool) async throws -> CacheEntry<[Product]> {
    let (flights, download) = (listFlights, downloadList())
    return { storing in
      try await flights.value(for: Fetch(resource: .list, storing: storing)) { try await download(storing) }
    }
  }

  private nonisolated func fetchProduct(id: Int) -> @Sendable (_ storing: Bool) async throws -> CacheEntry<Product> {
    let (flights, download) = (productFlights, downloadProduct(id: id))
    return { storing in
      try await flights.value(for: Fetch(resource: .product(id: id), storing: storing)) { try await download(storing) }
    }
  }

  // MARK: The network, finished

  /// Asks the network for the first page, stamps it with `now`, and remembers it when `storing`.
  ///
  /// The closure holds the repository weakly: a refresh waiting for the network
  /// does not keep it alive, and an answer that comes after it went away is
  /// written nowhere.
  private nonisolated func downloadList() -> @Sendable (_ storing: Bool) async throws -> CacheEntry<[Product]> {
    { [weak self, remote, now] storing in
      let page = try await remote.products(limit: Self.pageSize, skip: 0)
      let entry = CacheEntry(value: page.products, fetchedAt: now())
      if storing { try await self?.remember(list: entry) }
      return entry
    }
  }

  private nonisolated func downloadProduct(id: Int) -> @Sendable (_ storing: Bool) async throws -> CacheEntry<Product> {
    { [weak self, remote, now] storing in
      let product = try await remote.product(id: id)
      let entry = CacheEntry(value: product, fetchedAt: now())
      if storing { try await self?.remember(product: entry) }
      return entry
    }
  }
}

/// The memory tier's products: at most `capacity`, and when one more arrives,
/// the least recently used one leaves. Reading an entry counts as a use.
///
/// A list of 30 and a few opened products fit many times over; the bound is for
/// an app that browses thousands. Eviction scans the entries, which is fine for
/// a bound of a thousand; a larger one wants a linked list or `NSCache`.
nonisolated struct ProductMemory: Sendable {
  let capacity: Int
  private var entries: [Int: (entry: CacheEntry<Product>, lastUse: UInt64)] = [:]
  private var uses: UInt64 = 0

  /// - Precondition: `capacity >= 0`; 0 keeps nothing in memory.
  init(capacity: Int) {
    precondition(capacity >= 0, "a memory tier can't hold \(capacity) products")
    self.capacity = capacity
  }

  /// The entry for the product `id`, or `nil`; reading it or setting it is a use.
  subscript(id: Int) -> CacheEntry<Product>? {
    mutating get {
      guard let found = entries[id] else { return nil }
      uses += 1
      entries[id] = (found.entry, uses)
      return found.entry
    }
    set {
      guard let newValue else {
        entries[id] = nil
        return
      }
      uses += 1
      entries[id] = (newValue, uses)
      while entries.count > capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
        entries[oldest.key] = nil
      }
    }
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension CachingProductRepository: ProductRepository {}
