import CourseClock
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

@MainActor
@Suite(.timeLimit(.minutes(1)))
struct AppDependenciesTests {
  @Test(.afterTask1) func liveWiringRequestsTheCatalogThroughTheGivenSession() async {
    let probe = await WiringProbe.run(recorder: WiringProbeRecorder.self)
    let elsewhere = probe.requested.filter { $0.host != probe.baseURL.host }
    guard elsewhere.isEmpty else {
      Issue.record(
        guide.task(
          7,
          "given the base URL \(probe.baseURL) and a session that answers every host, the live wiring asked \(elsewhere.map(\.absoluteString)); build the data source from the baseURL argument"
        ))
      return
    }
    let api = FakeCatalogAPI()
    let dependencies = AppDependencies.live(baseURL: api.baseURL, session: api.session)
    guard
      let products = await guide.value(
        of: 7,
        "the live wiring's repository should return the first 30 products of the Catalog API at the base URL it was given, \(api.baseURL), through the session it was given, which saw \(api.requests.count) request(s) (URLSession.shared sent \(api.sharedSessionRequests.count))",
        { try await dependencies.productRepository.products() })
    else { return }
    let requests = api.requests.map {
      "\($0.method) \($0.url.path)?limit=\($0.query("limit") ?? "none")&skip=\($0.query("skip") ?? "none")"
    }
    let first = products.first?.title ?? "none"
    #expect(
      requests == ["GET /products?limit=30&skip=0"] && products.count == 30 && first == "Essence Mascara Lash Princess",
      guide.task(
        7,
        "the live wiring should send one GET /products?limit=30&skip=0 through the given session and return the 30 first real products, starting with Essence Mascara Lash Princess; the API saw \(requests), and the repository returned \(products.count) products starting with \(first)"
      )
    )
    let viewModel = dependencies.makeProductListViewModel()
    await viewModel.load()
    #expect(
      viewModel.state == .loaded(products),
      guide.task(
        3, "the live wiring's view model should show them: \(expected(.loaded(products), got: viewModel.state))"))
  }

  /// Skipped until the live wiring uses the session it is given: before that,
  /// `live(session:)` would send this test's request to the real Catalog API.
  @Test(.afterTask1, .afterLiveWiringUsesItsSession) func liveWiringDefaultsToTheRealCatalog() async {
    let session = CatalogRequestRecorder.makeSession()
    defer { session.finishTasksAndInvalidate() }
    let earlier = CatalogRequestRecorder.requestedURLs.count
    let dependencies = AppDependencies.live(session: session)
    guard
      await guide.value(
        of: 7, "the live wiring's repository should ask the Catalog API for products",
        { try await dependencies.productRepository.products() }) != nil
    else { return }
    let requested = CatalogRequestRecorder.requestedURLs.dropFirst(earlier).map(\.absoluteString)
    #expect(
      requested == ["https://dummyjson.com/products?limit=30&skip=0"],
      guide.task(
        7,
        "AppDependencies.live() with no base URL should ask the real Catalog API, https://dummyjson.com/products?limit=30&skip=0; it asked \(requested)"
      )
    )
  }

  /// What the preview answers is the composition root's choice (a canned list, no network);
  /// the test asks only that it answers at once, the same each time, and that the screen shows it.
  @Test func previewWiringShowsCannedProductsWithoutANetwork() async {
    let repository = AppDependencies.preview.productRepository
    guard
      let first = await guide.value(
        of: 7, "the preview wiring should answer canned products", { try await repository.products() }),
      let second = await guide.value(
        of: 7, "the preview wiring should answer canned products every time", { try await repository.products() })
    else { return }
    #expect(
      !first.isEmpty && first == second,
      guide.task(
        7,
        "the preview wiring should answer the same canned products every time, at least one; got products \(first.map(\.id)), then \(second.map(\.id))"
      )
    )
    guard let one = first.first else { return }  // Reported above, as Task 7's.
    do {
      let found = await Result { try await repository.product(id: one.id) }
      #expect(
        (try? found.get()) == one,
        guide.task(
          7, "the preview's product(id: \(one.id)) should be the product its list shows, got \(found.described)"))
    }
    let viewModel = AppDependencies.preview.makeProductListViewModel()
    await viewModel.load()
    let wanted = ProductListViewModel.State.loaded(first)
    #expect(
      viewModel.state == wanted,
      guide.task(3, "the preview view model should show the canned products: \(expected(wanted, got: viewModel.state))")
    )
  }

  @Test(.afterTask3) func testWiringTakesAnyRepository() async {
    let dependencies = AppDependencies(productRepository: StubProductRepository(answer: .success([.sample(id: 5)])))
    let viewModel = dependencies.makeProductListViewModel()
    #expect(
      viewModel.state == .idle, guide.task(3, "making a view model must do no work, got \(describe(viewModel.state))"))
    await viewModel.load()
    #expect(
      viewModel.state == .loaded([.sample(id: 5)]),
      guide.task(
        3,
        "the view model should load from the repository it was given: \(expected(.loaded([.sample(id: 5)]), got: viewModel.state))"
      ))
  }
}

extension Trait where Self == ConditionTrait {
  /// Skips a test, with a note naming Task 7, until `live(baseURL:session:)`
  /// sends a request, to any host, through the session it is given.
  static var afterLiveWiringUsesItsSession: Self {
    .enabled(
      guide.task(
        7,
        "skipped until live(baseURL:session:) sends its requests through the session it is given; until then this test could reach the real https://dummyjson.com"
      )
    ) { await liveWiringIsDone.value }
  }
}

/// Task 7's check, run once for every test that needs it, and bounded: it runs
/// before any test starts, where wiring that never answers would hang the run.
private let liveWiringIsDone = Task {
  await boundedCheck { await !WiringProbe.run(recorder: CatalogRequestRecorder.self).requested.isEmpty } ?? false
}

/// Asks the live wiring's repository for products through a recorder's session,
/// which answers every host in-process, so nothing reaches the internet even
/// when the wiring ignores the base URL it is given.
enum WiringProbe {
  /// What the probe passed and what the recorder saw.
  struct Outcome {
    /// The base URL the probe passed; a request to another host ignored it.
    var baseURL: URL
    /// The URLs the recorder was asked for, oldest first.
    var requested: [URL]
  }

  /// Runs the probe with `recorder`, whose list no test running at the same
  /// time reads.
  static func run(recorder: CatalogRequestRecorder.Type) async -> Outcome {
    // A FakeCatalogAPI first: it installs the trap for URLSession.shared before
    // this probe makes a session, and its host is one the trap refuses, so a
    // wiring that uses URLSession.shared stays in-process too.
    let api = FakeCatalogAPI()
    let session = recorder.makeSession()
    defer { session.finishTasksAndInvalidate() }
    let earlier = recorder.requestedURLs.count
    do {
      _ = try await AppDependencies.live(baseURL: api.baseURL, session: session).productRepository.products()
    } catch {
      // What matters here is where the request went, not the answer;
      // liveWiringRequestsTheCatalogThroughTheGivenSession reports the answer.
    }
    return Outcome(baseURL: api.baseURL, requested: Array(recorder.requestedURLs.dropFirst(earlier)))
  }
}
