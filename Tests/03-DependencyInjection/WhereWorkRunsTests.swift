import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

/// The view model is main-actor, and what it awaits starts there: the
/// repository in between must not pull the source's decoding onto it.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func decodingAPageRunsOffTheMainActorWhileTheViewModelLoads() async throws {
    let api = FakeCatalogAPI()
    let decoder = SpyJSONDecoder()
    let source = URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, decoder: decoder)
    let model = ProductListViewModel(repository: DefaultProductRepository(remote: source))
    await model.load()
    let decodes = decoder.decodes
    try #require(
      !decodes.isEmpty,
      guide.task(
        1,
        "the view model over DefaultProductRepository over the URLSession source should decode the first page; the source decoded nothing and the screen shows \(shown(model.state))"
      ))
    let onMainActor = decodes.filter(\.onMainActor).map(\.type)
    #expect(
      onMainActor.isEmpty,
      guide.task(
        1,
        "expected every body decoded off the main actor while the main-actor view model loads, but \(onMainActor.joined(separator: ", ")) decoded on it. stage 02's source keeps its decoding off its caller's actor: check that it still does, and that the repository reaches it (Docs/03-DependencyInjection.md, \"Where each layer runs\")"
      ))
  }
}
