import CourseSQLite
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution06
#else
  @testable import Lesson06
#endif

/// The view model is main-actor. A load through the boundary decodes the page
/// and writes it to disk; neither may run on the main actor.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func aLoadDecodesAndWritesThroughOffTheMainActor() async throws {
    let api = FakeCatalogAPI()
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("stage06-\(UUID().uuidString).sqlite").path
    defer { SQLiteConnection.removeDatabase(atPath: path) }
    let decoder = SpyJSONDecoder()
    let store = try SQLiteProductLocalDataSource(path: path)
    let repository = CachingProductRepository(
      remote: URLSessionProductRemoteDataSource(
        baseURL: api.baseURL, session: api.session, now: testNow, decoder: decoder),
      store: store, now: testNow)
    let watch = SQLiteMainActorWatch(path: path)
    let model = ProductListViewModel(repository: repository)
    await model.load()
    try #require(
      !decoder.decodes.isEmpty && watch.statementCount > 0,
      guide.task(
        4,
        "a first load over an empty cache should fetch the page and write it to disk; the source decoded \(decoder.decodes.count) bodies, \(watch.statementCount) SQLite statements ran on the file, and the screen shows \(shown(model.state))"
      ))
    let decodedOnMainActor = decoder.decodes.filter(\.onMainActor).map(\.type)
    let sqlOnMainActor = watch.statementsOnMainActor
    #expect(
      decodedOnMainActor.isEmpty && sqlOnMainActor.isEmpty,
      guide.task(
        4,
        "expected decoding and SQLite off the main actor while the main-actor view model loads, with the boundary's mapping around them; on it ran \(decodedOnMainActor.count) decode(s) \(decodedOnMainActor) and \(sqlOnMainActor.count) SQLite statement(s)\(sqlOnMainActor.first.map { ", the first: \($0.prefix(80))" } ?? "")"
      ))
  }
}
