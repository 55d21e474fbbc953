import CourseFixtures
import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif

/// Screens are main-actor and call the repository from there. A refresh decodes
/// a page and writes it to the store; an add writes the product and its outbox
/// entry. None of it may run on the main actor.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func refreshAndAddRunOffTheMainActor() async throws {
    let api = FakeCatalogAPI(products: Array(ProductFixtures.records.prefix(3)))
    let file = TemporaryDatabase()
    let decoder = SpyJSONDecoder()
    let (connectivity, device) = AsyncStream.makeStream(of: Bool.self)
    let app = OfflineAppDependencies(
      store: try OfflineProductStore(path: file.path),
      remote: URLSessionProductRemoteDataSource(
        baseURL: api.baseURL, session: api.session, now: testNow, decoder: decoder),
      connectivity: connectivity, retryPolicy: quickRetries, clock: api.clock, random: { 0 }, now: testNow)
    defer {
      device.finish()
      app.shutDown()
    }
    let refreshWatch = SQLiteMainActorWatch(path: file.path)
    do {
      try await app.repository.refresh()
    } catch {
      Issue.record(
        guide.task(
          3, "refresh() from the main actor should write a page through the store; it threw \(error)", blaming: error))
      return
    }
    let addWatch = SQLiteMainActorWatch(path: file.path)
    do {
      _ = try await app.repository.add(draft())
    } catch {
      Issue.record(
        guide.task(
          4, "add(_:) from the main actor should keep the product and its outbox entry; it threw \(error)",
          blaming: error))
      return
    }
    let decodedOnMainActor = decoder.decodes.filter(\.onMainActor).map(\.type)
    #expect(
      !decoder.decodes.isEmpty && decodedOnMainActor.isEmpty,
      guide.task(
        3,
        "expected the refreshed page decoded off the main actor: \(decoder.decodes.count) decode(s), \(decodedOnMainActor.count) on the main actor \(decodedOnMainActor)"
      ))
    for (task, what, watch) in [(3, "refresh()", refreshWatch), (4, "add(_:)", addWatch)] {
      let onMainActor = watch.statementsOnMainActor
      #expect(
        watch.statementCount > 0 && onMainActor.isEmpty,
        guide.task(
          task,
          "expected \(what), called from the main actor, to run its SQLite in the store's isolation: \(watch.statementCount) statement(s), \(onMainActor.count) on the main actor\(onMainActor.first.map { ", the first: \($0.prefix(80))" } ?? "")"
        ))
    }
  }
}
