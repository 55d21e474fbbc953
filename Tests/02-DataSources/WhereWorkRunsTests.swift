import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// Task 7: the view model is main-actor, so whatever it awaits starts there.
/// Reading a body must not stay there: the screen would freeze while it decodes.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct WhereWorkRunsTests {
  @Test func decodingAPageRunsOffTheMainActorWhileTheViewModelLoads() async throws {
    let (task, prefix) = await owner(of: 7)
    let api = FakeCatalogAPI()
    let decoder = SpyJSONDecoder()
    let model = ProductListViewModel(
      remote: URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, decoder: decoder))
    await model.load()
    let decodes = decoder.decodes
    if decodes.isEmpty {
      let why =
        task != 7
        ? prefix
        : api.requests.isEmpty
          ? "Task 6 comes first: load() sent no request through the source it was given. "
          : "the source sent \(api.requests.count) request(s) but never decoded with the decoder its initializer was given: read every body with `decoder`, which is the catalog's own unless a test passes another. "
      Issue.record(
        guide.task(
          task == 7 && api.requests.isEmpty ? 6 : task,
          "\(why)The view model ended with \(model.products.count) products and the message \(shown(model.errorMessage as Any))"
        ))
      return
    }
    let onMainActor = decodes.filter(\.onMainActor).map(\.type)
    #expect(
      onMainActor.isEmpty,
      guide.task(
        7,
        "expected every body decoded off the main actor while the main-actor view model loads, but \(onMainActor.joined(separator: ", ")) decoded on it. A nonisolated async function runs on its caller's actor (nonisolated(nonsending), on in a new Xcode 26 app target), so the source's work ran where load() runs"
      ))
  }

  /// The error body is a body too: read with the given decoder, off the main actor.
  @Test func anErrorBodyIsDecodedOffTheMainActorToo() async throws {
    let (task, prefix) = await owner(of: 7)
    guard task == 7 else {
      Issue.record(guide.task(task, "\(prefix)Task 7's error-body check waits for it"))
      return
    }
    let api = FakeCatalogAPI()
    let decoder = SpyJSONDecoder()
    let source = URLSessionProductRemoteDataSource(baseURL: api.baseURL, session: api.session, decoder: decoder)
    // Product 999 does not exist: the catalog answers 404 with {"message": "…"}.
    let outcome = await Result { try await source.product(id: 999) }
    let decodes = decoder.decodes
    let onMainActor = decodes.filter(\.onMainActor).map(\.type)
    #expect(
      !decodes.isEmpty && onMainActor.isEmpty,
      guide.task(
        7,
        decodes.isEmpty
          ? "a 404's body {\"message\": …} should be read with the decoder the source was given, as every body is; it decoded nothing, and product(id: 999) gave \(outcome.described)"
          : "a 404's body should be decoded off the main actor when the main actor asks, as a page is; \(onMainActor.joined(separator: ", ")) decoded on it"
      ))
  }
}
