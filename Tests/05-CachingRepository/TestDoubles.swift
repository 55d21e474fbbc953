import CourseClock
import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

// Test doubles, named by role. They live with the tests, never in the app. The
// view model's spy, SpyProductRepository, is the one you wrote in stage 03; it
// sits in the stage's folder because one test folder serves lesson and solution.

/// Counts events and lets a test wait until a number of them has happened,
/// without sleeping: a waiter returns as soon as the count is reached, or when
/// its task is cancelled.
final class CountSignal: Sendable {
  private struct State {
    var count = 0
    var lastID: UInt64 = 0
    var waiters: [UInt64: (count: Int, continuation: CheckedContinuation<Void, Never>)] = [:]
    var cancelledEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  var count: Int { state.withLock { $0.count } }

  func increment() {
    let ready = state.withLock { state in
      state.count += 1
      let ready = state.waiters.filter { $0.value.count <= state.count }
      for id in ready.keys { state.waiters[id] = nil }
      return ready.values.map(\.continuation)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once `count` events have happened, or early when the task is cancelled.
  func wait(atLeast count: Int) async {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil || state.count >= count { return true }
          state.waiters[id] = (count, continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        guard let waiter = state.waiters.removeValue(forKey: id) else {
          state.cancelledEarly.insert(id)
          return nil as CheckedContinuation<Void, Never>?
        }
        return waiter.continuation
      }
      waiter?.resume()
    }
  }
}

/// A number that goes up and down, such as the callers waiting in a coalescer,
/// and lets a test wait until it meets a condition, without sleeping: a waiter
/// returns as soon as the condition holds, or when its task is cancelled.
final class Gauge: Sendable {
  private struct State {
    var value = 0
    var lastID: UInt64 = 0
    var waiters: [UInt64: (condition: @Sendable (Int) -> Bool, continuation: CheckedContinuation<Void, Never>)] = [:]
    var cancelledEarly: Set<UInt64> = []
  }

  private let state = Mutex(State())

  var value: Int { state.withLock { $0.value } }

  /// The hook to inject: it sets the value.
  var hook: @Sendable (Int) -> Void { { self.set($0) } }

  func set(_ value: Int) {
    let ready = state.withLock { state in
      state.value = value
      let ready = state.waiters.filter { $0.value.condition(value) }
      for id in ready.keys { state.waiters[id] = nil }
      return ready.values.map(\.continuation)
    }
    for continuation in ready { continuation.resume() }
  }

  /// Returns once the value is at least `value`, or early when the task is cancelled.
  func wait(atLeast value: Int) async { await wait { $0 >= value } }

  /// Returns once `condition` holds for the value, or early when the task is cancelled.
  func wait(until condition: @escaping @Sendable (Int) -> Bool) async {
    let id = state.withLock { state in
      state.lastID += 1
      return state.lastID
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state in
          if state.cancelledEarly.remove(id) != nil || condition(state.value) { return true }
          state.waiters[id] = (condition, continuation)
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waiter = state.withLock { state in
        guard let waiter = state.waiters.removeValue(forKey: id) else {
          state.cancelledEarly.insert(id)
          return nil as CheckedContinuation<Void, Never>?
        }
        return waiter.continuation
      }
      waiter?.resume()
    }
  }
}

/// Listens to the repository's `activity`: the background refreshes running, and
/// the callers waiting in its shared requests, for tests to wait on.
final class ActivitySpy: Sendable {
  /// Refreshes that started and have not ended.
  let revalidationsRunning = Gauge()
  /// One event per refresh started.
  let revalidationsStarted = CountSignal()
  /// Callers waiting for a shared request of the list.
  let listCallers = Gauge()
  /// Callers waiting for shared requests of products.
  let productCallers = Gauge()
  private let running = Mutex<[String]>([])
  private let joined = Mutex(false)

  /// A task that ends once no refresh runs, or when it is cancelled: for
  /// `waitFor(_:unlessFinished:)`, so a test never waits for a refresh that
  /// did not start. Cancel it when done.
  func untilNoRevalidationRuns() -> Task<Void, Never> {
    let running = revalidationsRunning
    return Task { await running.wait { $0 == 0 } }
  }

  /// What the refreshes that started and have not ended refresh, as the activity named it.
  var runningResources: [String] { running.withLock { $0 } }

  /// Whether a caller has ever waited for a shared request: then a call that
  /// never returns is most likely a caller the shared request never answered.
  var sawSharedRequests: Bool { joined.withLock { $0 } }

  var hook: @Sendable (CacheActivity) -> Void {
    { event in
      switch event {
      case .revalidationStarted(let resource):
        let count = self.running.withLock { running in
          running.append("\(resource)")
          return running.count
        }
        self.revalidationsStarted.increment()
        self.revalidationsRunning.set(count)
      case .revalidationEnded(let resource):
        let count = self.running.withLock { running in
          if let index = running.firstIndex(of: "\(resource)") { running.remove(at: index) }
          return running.count
        }
        self.revalidationsRunning.set(count)
      case .listCallersWaiting(let count):
        if count > 0 { self.joined.withLock { $0 = true } }
        self.listCallers.set(count)
      case .productCallersWaiting(let count):
        if count > 0 { self.joined.withLock { $0 = true } }
        self.productCallers.set(count)
      }
    }
  }
}

/// What a call that never returned is shown as: the test gave up on it and cancelled it.
struct NeverReturned: Error, CustomStringConvertible {
  /// The task the call's hang was blamed on, in the issue recorded when the test gave up on it.
  var task: Int
  var description: String { "no answer: the call never returned (Task \(task)'s message says why)" }
}

/// Spy on the network: counts calls, answers from a script, can hold calls until
/// the test releases them, and records calls that end cancelled.
actor SpyProductRemoteDataSource {
  private(set) var listCalls = 0
  private(set) var productCalls: [Int] = []
  private(set) var cancelledCalls = 0
  private var answer: Result<[Product], RemoteDataSourceError>
  private var holdsCalls: Bool
  private var held: [UInt64: CheckedContinuation<Void, Never>] = [:]
  private var lastID: UInt64 = 0
  /// One event per call, list or product.
  nonisolated let calls = CountSignal()
  /// One event per call that has returned or thrown.
  nonisolated let ended = CountSignal()

  /// - Parameters:
  ///   - answer: The first page, or the error every call throws; products by id come from it.
  ///   - holdsCalls: Whether calls wait for `release()` before answering.
  init(answer: Result<[Product], RemoteDataSourceError> = .success(firstPage), holdsCalls: Bool = false) {
    self.answer = answer
    self.holdsCalls = holdsCalls
  }

  /// Changes what later calls answer.
  func answer(with answer: Result<[Product], RemoteDataSourceError>) { self.answer = answer }

  var totalCalls: Int { listCalls + productCalls.count }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    listCalls += 1
    calls.increment()
    defer { ended.increment() }
    try await hold()
    return ProductPage(products: try answer.get(), total: 194, skip: skip, limit: limit)
  }

  func product(id: Int) async throws -> Product {
    productCalls.append(id)
    calls.increment()
    defer { ended.increment() }
    try await hold()
    guard let product = try answer.get().first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: "Product with id '\(id)' not found")
    }
    return product
  }

  /// Lets every held call answer, and answers later calls at once.
  func release() {
    holdsCalls = false
    for continuation in held.values { continuation.resume() }
    held.removeAll()
  }

  private func hold() async throws {
    if holdsCalls {
      lastID += 1
      let id = lastID
      await withTaskCancellationHandler {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
          if Task.isCancelled { continuation.resume() } else { held[id] = continuation }
        }
      } onCancel: {
        Task { await self.resumeHeld(id) }
      }
    }
    if Task.isCancelled {
      cancelledCalls += 1
      throw CancellationError()
    }
  }

  private func resumeHeld(_ id: UInt64) {
    held.removeValue(forKey: id)?.resume()
  }
}

/// Spy on the disk tier: forwards to a real store, counts reads and writes, and
/// can make writes or reads fail. Given the repository's `now`, it fails the
/// test naming Task 4 when a write is stamped with another time (`Date()`, say).
actor SpyCacheStore {
  struct WriteFailed: Error, Equatable, CustomStringConvertible {
    var description: String { "disk full" }
  }

  private let store: any ProductCacheStore
  private(set) var reads = 0
  private(set) var writes = 0
  private var failsWrites = false
  private var failsReads = false
  private let now: (@Sendable () -> Date)?

  init(wrapping store: any ProductCacheStore = InMemoryProductCacheStore(), now: (@Sendable () -> Date)? = nil) {
    self.store = store
    self.now = now
  }

  /// Records an issue naming Task 4 when `fetchedAt` is not the repository's `now()`.
  private func checkStamp(_ fetchedAt: Date, of what: String) {
    guard let now, abs(fetchedAt.timeIntervalSince(now())) > 1 else { return }
    Issue.record(
      guide.task(
        4,
        "the repository saved \(what) with fetchedAt \(fetchedAt), but its injected now() says \(now()): an entry's age is measured on the repository's `now`, so stamp every write with it, never with Date()"
      ))
  }

  func failWrites() { failsWrites = true }
  func failReads() { failsReads = true }

  func cachedList() async throws -> CacheEntry<[Product]>? {
    reads += 1
    if failsReads { throw WriteFailed() }
    return try await store.cachedList()
  }

  func saveList(_ products: [Product], fetchedAt: Date) async throws {
    writes += 1
    checkStamp(fetchedAt, of: "the list")
    if failsWrites { throw WriteFailed() }
    try await store.saveList(products, fetchedAt: fetchedAt)
  }

  func cachedProduct(id: Int) async throws -> CacheEntry<Product>? {
    reads += 1
    if failsReads { throw WriteFailed() }
    return try await store.cachedProduct(id: id)
  }

  func saveProduct(_ product: Product, fetchedAt: Date) async throws {
    writes += 1
    checkStamp(fetchedAt, of: "product \(product.id)")
    if failsWrites { throw WriteFailed() }
    try await store.saveProduct(product, fetchedAt: fetchedAt)
  }
}

/// A repository with a spy network and a spy disk tier over an in-memory store, at a settable time.
struct Harness {
  let now = TestNow()
  let remote: SpyProductRemoteDataSource
  let store: SpyCacheStore
  /// The store behind the spy, for seeding without counting a write.
  let disk: any ProductCacheStore
  let diagnostics = DiagnosticsSpy()
  let activity = ActivitySpy()
  let repository: CachingProductRepository

  init(
    network: Result<[Product], RemoteDataSourceError> = .success(firstPage), holdsCalls: Bool = false,
    store: any ProductCacheStore = InMemoryProductCacheStore(), memoryCapacity: Int = 1_000
  ) {
    remote = SpyProductRemoteDataSource(answer: network, holdsCalls: holdsCalls)
    disk = store
    self.store = SpyCacheStore(wrapping: store, now: now.provider)
    repository = CachingProductRepository(
      remote: remote, store: self.store, lifetimes: testLifetimes, now: now.provider, diagnostics: diagnostics.hook,
      activity: activity.hook, memoryCapacity: memoryCapacity)
  }

  /// Waits until every background refresh has ended, as the repository's
  /// `activity` tells, and fails naming Task 6 when one is still running after
  /// `patienceTurns` turns: the network answers at once by now, so a refresh
  /// that does not end never will.
  func waitForRevalidations(sourceLocation: SourceLocation = #_sourceLocation) async {
    let running = activity.revalidationsRunning
    let patience = Task { await runOutOfPatience() }
    let ended = await waitFor({ await running.wait { $0 == 0 } }, unlessFinished: patience)
    patience.cancel()
    let left = activity.runningResources
    let shared =
      activity.sawSharedRequests
      ? "; if it does report its end, it waits for a shared request that never handed it the result, and Task 7's messages say where"
      : ""
    #expect(
      ended,
      guide.task(
        6,
        "every background refresh should end, and report .revalidationEnded, once the network has answered; the refresh of \(left.joined(separator: ", ")) started and never ended (report its end as its task's last step, whatever the outcome)\(shared)"
      ), sourceLocation: sourceLocation)
  }

  /// The outcome of `call`, made while the network answers at once, or
  /// `NeverReturned` when it has not returned long after (about a second, far
  /// beyond what working code needs). A call that never returns fails the test
  /// naming Task 7 when callers have been waiting for a shared request (one
  /// the shared request never answered), else Task 5; it is cancelled, never awaited.
  func outcome<Value: Sendable>(
    of what: String, sourceLocation: SourceLocation = #_sourceLocation,
    _ call: @escaping @Sendable () async throws -> Value
  ) async -> Result<Value, any Error> {
    let task = Task { try await call() }
    let gaveUp = await waitFor(
      { for _ in 0..<20 where !Task.isCancelled { await runOutOfPatience() } }, unlessFinished: task)
    guard gaveUp else { return await task.result }
    task.cancel()
    let shared = activity.sawSharedRequests
    Issue.record(
      guide.task(
        shared ? 7 : 5,
        shared
          ? "\(what) never returned, although the network answered at once: it waited for a shared request that never handed it the result (every caller still waiting hears the shared request's one result or error)"
          : "\(what) never returned, although the network answers at once here: something it awaits never ends"),
      sourceLocation: sourceLocation)
    return .failure(NeverReturned(task: shared ? 7 : 5))
  }

  /// `products(policy:)` through `outcome(of:_:)`.
  func products(_ policy: CachePolicy, sourceLocation: SourceLocation = #_sourceLocation) async -> Result<
    RepositoryAnswer<[Product]>, any Error
  > {
    let repository = repository
    return await outcome(of: "products(policy: .\(policy))", sourceLocation: sourceLocation) {
      try await repository.products(policy: policy)
    }
  }

  /// `product(id:policy:)` through `outcome(of:_:)`.
  func product(_ id: Int, _ policy: CachePolicy, sourceLocation: SourceLocation = #_sourceLocation) async -> Result<
    RepositoryAnswer<Product>, any Error
  > {
    let repository = repository
    return await outcome(of: "product(id: \(id), policy: .\(policy))", sourceLocation: sourceLocation) {
      try await repository.product(id: id, policy: policy)
    }
  }

  /// Puts the list on disk as fetched `age` seconds before now.
  func seedList(_ products: [Product] = firstPage, age: TimeInterval) async throws {
    try await disk.saveList(products, fetchedAt: now.date.addingTimeInterval(-age))
  }
}

/// Stub repository for the view model's cancellation tests: answers the first
/// `answeredCalls` calls at once with `answer`, and holds every later call until
/// its task is cancelled, then throws `CancellationError`, as the real one does.
actor HoldingProductRepository {
  private let answer: RepositoryAnswer<[Product]>
  private var answeredCalls: Int
  /// One event per call that is being held.
  nonisolated let held = CountSignal()

  init(answer: RepositoryAnswer<[Product]>, answeredCalls: Int) {
    self.answer = answer
    self.answeredCalls = answeredCalls
  }

  func products(policy: CachePolicy) async throws -> RepositoryAnswer<[Product]> {
    guard answeredCalls == 0 else {
      answeredCalls -= 1
      return answer
    }
    held.increment()
    // Nothing ever signals this: it returns only when the task is cancelled.
    await CountSignal().wait(atLeast: 1)
    throw CancellationError()
  }

  func product(id: Int, policy: CachePolicy) async throws -> RepositoryAnswer<Product> {
    throw RemoteDataSourceError.http(status: 404, message: nil)
  }
}

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension SpyProductRemoteDataSource: ProductRemoteDataSource {}

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension SpyCacheStore: ProductCacheStore {}

// The conformance is declared apart from the actor: Swift 6.3 can reject an actor that
// conforms to a `nonisolated` protocol in its own declaration (Docs/Setup.md, "Today's Xcode").
extension HoldingProductRepository: ProductRepository {}
