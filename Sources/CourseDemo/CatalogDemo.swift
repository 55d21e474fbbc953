import CatalogServer
import Foundation

@testable import Solution07

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The finished app of stage 07, run as a narrated script: load, go offline,
/// edit offline, come back online and watch the outbox sync.
///
/// It uses Solution07's composition root, `OfflineAppDependencies`:
/// `OfflineFirstProductRepository` over an `OfflineProductStore`, and a
/// `ProductSyncEngine` that follows a connectivity stream the script yields into.
/// Nothing waits for a person: the steps run in a fixed order and end.
public enum CatalogDemo {
  /// Runs the script against its own `course serve` on a free port of 127.0.0.1.
  ///
  /// - Parameter narrate: Hears every event, in order, from the task that runs the script.
  /// - Throws: `DemoFailure` when a step did not happen as the app promises, an
  ///   error of the app or the server, or `CancellationError`.
  public static func runEmbedded(narrate: @escaping @Sendable (DemoEvent) -> Void) async throws {
    let log = RequestLog()
    let configuration = CatalogServer.Configuration(port: 0, log: { log.append($0) })
    let session = URLSession(configuration: AppDependencies.sessionConfiguration())
    defer { session.finishTasksAndInvalidate() }
    try await CatalogServer.withRunning(configuration) { server in
      narrate(.server("course serve on \(server.baseURL.absoluteString) (127.0.0.1 only, 194 products)"))
      let network = EmbeddedCatalog(server: server, log: log, session: session)
      try await Script(network: network, narrate: narrate).run()
    }
  }

  /// Runs the script against a real Catalog API, such as https://dummyjson.com.
  ///
  /// Offline is simulated on the device; DummyJSON only simulates writes.
  public static func run(baseURL: URL, narrate: @escaping @Sendable (DemoEvent) -> Void) async throws {
    let session = URLSession(configuration: AppDependencies.sessionConfiguration())
    defer { session.finishTasksAndInvalidate() }
    narrate(.note("Using \(baseURL.absoluteString). Offline is simulated on this device."))
    if baseURL.host == "dummyjson.com" {
      narrate(
        .note(
          "DummyJSON only simulates writes: it answers an update as if it kept it, but keeps nothing, "
            + "so a refresh brings the old title back."))
    }
    try await Script(network: RealCatalog(baseURL: baseURL, session: session), narrate: narrate).run()
  }
}

/// A step that did not happen as the app promises.
public struct DemoFailure: Error, Sendable, Equatable, CustomStringConvertible {
  public let description: String
}

/// The steps, in order.
private struct Script {
  let network: any DemoNetwork
  let narrate: @Sendable (DemoEvent) -> Void

  /// On the main actor, where an app's composition root lives (Solution07's `OfflineAppDependencies` is main-actor).
  @MainActor
  func run() async throws {
    let started = ContinuousClock.now
    narrate(.say("The app: Solution07's OfflineFirstProductRepository over an OfflineProductStore (SQLite),"))
    narrate(.say("and a ProductSyncEngine that sends the outbox whenever the device is online."))
    // The app's composition root, as Solution07 ships it. The jitter is fixed
    // so the demo takes the same time on every run.
    let (connectivity, device) = AsyncStream.makeStream(of: Bool.self)
    let app = OfflineAppDependencies(
      store: try OfflineProductStore(path: ":memory:"), remote: network.remote, connectivity: connectivity,
      random: { 0.2 })
    let (store, repository, engine) = (app.store, app.repository, app.engine)
    var statuses = await engine.statuses().makeAsyncIterator()
    defer {
      device.finish()
      app.shutDown()
    }
    var screen = try await repository.observe().makeAsyncIterator()

    // Step 1
    narrate(.heading("Step 1: Load products"))
    try await expectStatus(&statuses, "idle")
    let empty = try await next(&screen, "the store's first list")
    narrate(.say("The screen observes the store: \(empty.count) products before the first load."))
    try await repository.refresh()
    let lastLoaded = Date()
    let loaded = try await next(&screen, "the list after refresh()")
    serverLines(await network.requests(expected: 1))
    let total = try await store.paging().total ?? 0
    show(loaded)
    narrate(.say("refresh() wrote page 1 through the store: \(loaded.count) of \(total) products on the device."))
    device.yield(true)
    narrate(.say("The device is online; the sync engine starts with an empty outbox."))
    try await expectStatus(&statuses, "syncing(pending: 0)")
    try await expectStatus(&statuses, "idle")
    narrate(.milestone(.loaded(shown: loaded.count, total: total)))

    // Step 2
    narrate(.heading("Step 2: Go offline"))
    narrate(network.goOffline())
    device.yield(false)
    try await expectStatus(&statuses, "offline")
    narrate(.say("Pull to refresh:"))
    do {
      try await repository.refresh()
      throw DemoFailure(description: "refresh() succeeded while the catalog was offline")
    } catch let error as CatalogError {
      let shown = try await store.products()
      narrate(.say("refresh() failed after its retries: \(error)."))
      // Not ProductListViewModel.notice(for:): it is @MainActor, and `course`
      // holds the main thread while the demo runs.
      narrate(.say("The screen says: You're offline. Showing the products saved on this device."))
      narrate(
        .say(
          "Stale: the screen still shows the \(shown.count) products in the store, "
            + "last refreshed \(Self.seconds(since: lastLoaded, plus: .zero)) ago."))
      narrate(.milestone(.staleWhileOffline(shown: shown.count, error: "\(error)")))
    }

    // Step 3
    narrate(.heading("Step 3: Edit a product offline"))
    guard var edited = loaded.first else { throw DemoFailure(description: "the first page was empty") }
    let original = edited.title
    edited.title = original + " (edited offline)"
    try await repository.update(edited)
    let afterEdit = try await next(&screen, "the list after update(_:)")
    guard let row = afterEdit.first(where: { $0.id == edited.id }), row.title == edited.title else {
      throw DemoFailure(description: "the edit of product \(edited.id) is not on the screen")
    }
    narrate(.say("update(_:) wrote the store and the outbox in one transaction; the screen shows it at once:"))
    show(Array(afterEdit.prefix(1)))
    let outbox = try await store.outbox()
    let pending = try await store.pendingCount()
    guard let entry = outbox.first, pending == 1 else {
      throw DemoFailure(description: "expected 1 pending outbox entry, got \(pending)")
    }
    narrate(
      .say(
        "Outbox: \(pending) pending, \(entry.method) /products/\(entry.productID) with Idempotency-Key \(entry.idempotencyKey)."
      ))
    narrate(.say("Nothing was sent: the engine is offline."))
    narrate(
      .milestone(
        .editedOffline(
          productID: edited.id, title: edited.title, pending: pending, idempotencyKey: entry.idempotencyKey)
      ))

    // Step 4
    narrate(.heading("Step 4: Come back online"))
    narrate(network.goOnline())
    device.yield(true)
    let syncing = "syncing(pending: 1)"
    try await expectStatus(&statuses, syncing)
    try await expectStatus(&statuses, "idle")
    let sent = await network.requests(expected: 1)
    serverLines(sent)
    let left = try await store.pendingCount()
    narrate(.say("The outbox is sent: \(left) pending."))
    narrate(.milestone(.synced(statuses: [syncing, "idle"], pending: left)))
    if let title = network.serverTitle(id: edited.id) {
      narrate(.say("The server's copy of product \(edited.id): \(title)"))
      narrate(.say("A retry of the same write, with the same Idempotency-Key, as after a lost answer:"))
      let replayed = try await network.repeatWrite(entry) ?? false
      serverLines(await network.requests(expected: 1))
      narrate(
        .say(
          replayed
            ? "The server answered from its idempotency record (Idempotent-Replayed: true): applied once."
            : "The server applied the repeat again."))
      narrate(
        .milestone(
          .serverApplied(writes: sent.filter { $0.hasPrefix("PUT ") }.count, replayedOnRepeat: replayed, title: title)))
    }

    // Step 5
    narrate(.heading("Step 5: Refresh from the catalog"))
    try await repository.refresh()
    serverLines(await network.requests(expected: 1))
    let refreshed = try await store.products()
    let title = refreshed.first { $0.id == edited.id }?.title ?? "(gone)"
    narrate(.say("Product \(edited.id) as the catalog sends it back: \(title)"))
    narrate(.milestone(.refreshedAfterSync(title: title)))

    device.finish()
    await app.engineStopped()
    narrate(.say("The connectivity stream ended; the engine stopped and finished its status stream."))
    narrate(.say("Done in \(Self.seconds(since: nil, plus: ContinuousClock.now - started))."))
    narrate(.milestone(.finished))
  }

  private func show(_ products: [Product]) {
    for product in products.prefix(3) {
      narrate(.row("#\(product.id) \(product.title)  \(product.price)"))
    }
    if products.count > 3 { narrate(.row("… \(products.count - 3) more")) }
  }

  private func serverLines(_ lines: [String]) {
    for line in lines { narrate(.server(line)) }
  }

  /// The next list the screen gets.
  private func next(_ screen: inout AsyncStream<[Product]>.Iterator, _ what: String) async throws -> [Product] {
    guard let products = await screen.next() else {
      try Task.checkCancellation()
      throw DemoFailure(description: "the product stream ended before \(what)")
    }
    return products
  }

  /// Reads the next status and narrates it; it must be `expected`.
  private func expectStatus(_ statuses: inout AsyncStream<SyncStatus>.Iterator, _ expected: String) async throws {
    guard let status = await statuses.next() else {
      try Task.checkCancellation()
      throw DemoFailure(description: "the status stream ended before \(expected)")
    }
    narrate(.syncStatus("\(status)"))
    guard "\(status)" == expected else {
      throw DemoFailure(description: "expected the sync status \(expected), got \(status)")
    }
  }

  /// "1.2 s": the time since `date`, or `duration`.
  private static func seconds(since date: Date?, plus duration: Duration) -> String {
    let elapsed =
      (date.map { Date().timeIntervalSince($0) } ?? 0) + Double(duration.components.seconds)
      + Double(duration.components.attoseconds) / 1e18
    return "\((elapsed * 10).rounded() / 10) s"
  }
}
