import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution05
#else
  @testable import Lesson05
#endif

/// The view model is main-actor. A load through the caching repository decodes
/// the network's page and writes it to disk; neither may run on the main actor.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func aLoadDecodesAndWritesThroughOffTheMainActor() async throws {
    let api = FakeCatalogAPI()
    let file = TemporaryDatabase()
    let decoder = SpyJSONDecoder()
    let store = try openSQLiteStore(file.path)
    let repository = CachingProductRepository(
      remote: URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, decoder: decoder),
      store: store, now: { Date(timeIntervalSince1970: 1_746_006_062) })
    let watch = SQLiteMainActorWatch(path: file.path)
    let model = ProductListViewModel(repository: repository)
    await model.load()
    try #require(
      !decoder.decodes.isEmpty && watch.statementCount > 0,
      guide.task(
        4,
        "a first load over an empty cache should fetch the page and write it through to the disk tier; the source decoded \(decoder.decodes.count) bodies, \(watch.statementCount) SQLite statements ran on the file, and the screen shows \(shown(model.state))"
      ))
    let decodedOnMainActor = decoder.decodes.filter(\.onMainActor).map(\.type)
    let sqlOnMainActor = watch.statementsOnMainActor
    #expect(
      decodedOnMainActor.isEmpty && sqlOnMainActor.isEmpty,
      guide.task(
        4,
        "expected the page decoded and written to disk off the main actor while the main-actor view model loads; on it ran \(decodedOnMainActor.count) decode(s) \(decodedOnMainActor) and \(sqlOnMainActor.count) SQLite statement(s)\(sqlOnMainActor.first.map { ", the first: \($0.prefix(80))" } ?? ""). Keep the repository's work in its own isolation and the store's in the store's"
      ))
  }
}
