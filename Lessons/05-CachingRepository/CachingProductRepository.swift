import Foundation
import LessonSupport

/// The app's repository: it answers from memory, from the disk store or from the
/// network, as the caller's `CachePolicy` and the data's `MaxAge` decide.
///
/// - Memory answers repeat reads without touching the disk store.
/// - A network answer is written through to memory and disk; a failed disk write
///   is reported through `diagnostics`, never thrown.
/// - Concurrent identical network requests share one call.
/// - Background refreshes belong to the repository: `cancelRevalidations()`
///   stops them, and so does letting the repository go, since none holds it.
/// - Wall-clock time comes from `now`, never from `Date()`, so tests set it.
///
/// How the tiers, the keys and the shared requests are arranged inside is
/// yours to design: Docs/05-CachingRepository.md, "Your decisions".
actor CachingProductRepository {
  /// How many products the list screen shows.
  static let pageSize = 30

  /// What a background refresh is of, as `CacheActivity` reports it. Key your
  /// own maps by it, or by anything else you choose.
  enum Resource: Hashable, Sendable {
    case list
    case product(id: Int)
  }

  private let remote: any ProductRemoteDataSource
  private let store: any ProductCacheStore
  private let lifetimes: CacheLifetimes
  private let now: @Sendable () -> Date
  private let diagnostics: @Sendable (CacheDiagnostic) -> Void
  private let activity: @Sendable (CacheActivity) -> Void
  private let memoryCapacity: Int

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
    precondition(memoryCapacity >= 0, "a memory tier can't hold \(memoryCapacity) products")
    self.remote = remote
    self.store = store
    self.lifetimes = lifetimes
    self.now = now
    self.diagnostics = diagnostics
    self.activity = activity
    self.memoryCapacity = memoryCapacity
  }

  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]> {
    // TODO: Tasks 3 to 7. Answer the list from memory, disk or the network, as
    // `policy` and `lifetimes.list` decide (Docs/05-CachingRepository.md, Tasks).
    throw NotDoneYet(
      "Task 3", in: "Docs/05-CachingRepository.md", "products(policy: .\(policy)) should answer from the cache tiers")
  }

  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product> {
    // TODO: Tasks 3 to 7. The same for one product, which a cached list may already hold.
    throw NotDoneYet(
      "Task 3", in: "Docs/05-CachingRepository.md",
      "product(id: \(id), policy: .\(policy)) should answer from the cache tiers")
  }

  /// Cancels every background refresh running now, as when the screen or the
  /// session that wanted them ends. Each ends without writing and without a
  /// `.revalidationFailed`; a later stale read starts a new one.
  func cancelRevalidations() {
    // TODO: Task 6. Stop every background refresh running now.
  }
}

// Declared apart from the actor: Swift 6.3, building with a package's defaults, can
// reject an actor that names a `nonisolated` protocol in its own declaration
// (Docs/Setup.md, "Today's Xcode").
extension CachingProductRepository: ProductRepository {}
