import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution03
#else
  @testable import Lesson03
#endif

@MainActor
struct AppDependenciesTests {
  @Test func liveWiringRequestsTheCatalogThroughTheGivenSession() async throws {
    let api = FakeCatalogAPI()
    let viewModel = AppDependencies.live(baseURL: api.baseURL, session: api.session).makeProductListViewModel()
    await viewModel.load()
    let request = try #require(
      api.requests.first,
      guide.task(5, "the live wiring sent no request to the Catalog API; state is \(viewModel.state)"))
    #expect(
      request.method == "GET" && request.path == "/products" && request.query("limit") == "30"
        && request.query("skip") == "0",
      guide.task(5, "the live wiring should GET /products?limit=30&skip=0, got \(request.method) \(request.url)")
    )
    guard case .loaded(let products) = viewModel.state else {
      Issue.record(guide.task(5, "the live wiring should load 30 real products, got \(viewModel.state)"))
      return
    }
    #expect(
      products.count == 30 && products.first?.title == "Essence Mascara Lash Princess",
      guide.task(5, "expected the 30 first real products"))
  }

  @Test func liveWiringDefaultsToTheRealCatalog() {
    #expect(AppDependencies.catalogURL.absoluteString == "https://dummyjson.com")
  }

  @Test func previewWiringShowsCannedProductsWithoutANetwork() async {
    let viewModel = AppDependencies.preview.makeProductListViewModel()
    await viewModel.load()
    #expect(
      viewModel.state == .loaded(PreviewProductRepository.products),
      guide.task(5, "the preview wiring should show PreviewProductRepository.products, got \(viewModel.state)")
    )
  }

  @Test func testWiringTakesAnyRepository() async {
    let dependencies = AppDependencies(productRepository: StubProductRepository(answer: .success([.sample(id: 5)])))
    let viewModel = dependencies.makeProductListViewModel()
    #expect(viewModel.state == .idle, guide.task(2, "making a view model must do no work, got \(viewModel.state)"))
    await viewModel.load()
    #expect(
      viewModel.state == .loaded([.sample(id: 5)]),
      guide.task(2, "the view model should load from the repository it was given, got \(viewModel.state)"))
  }
}
