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
    let dependencies = AppDependencies.live(baseURL: api.baseURL, session: api.session)
    let products = await Result { try await dependencies.productRepository.products() }
    let request = try #require(
      api.requests.first,
      guide.task(5, "the live wiring's repository sent no request to the Catalog API; it answered \(products)")
    )
    #expect(
      request.method == "GET" && request.path == "/products" && request.query("limit") == "30"
        && request.query("skip") == "0",
      guide.task(5, "the live wiring should GET /products?limit=30&skip=0, got \(request.method) \(request.url)")
    )
    #expect(
      (try? products.get())?.count == 30 && (try? products.get())?.first?.title == "Essence Mascara Lash Princess",
      guide.task(5, "the live wiring should return the 30 first real products, got \(products.map(\.count))")
    )
    let viewModel = dependencies.makeProductListViewModel()
    await viewModel.load()
    #expect(
      viewModel.state == .loaded(try products.get()),
      guide.task(2, "the view model should show them, got \(viewModel.state)"))
  }

  @Test func liveWiringDefaultsToTheRealCatalog() {
    #expect(
      AppDependencies.catalogURL.absoluteString == "https://dummyjson.com",
      guide.task(
        5,
        "the live wiring's default base URL should be the real Catalog API, https://dummyjson.com, got \(AppDependencies.catalogURL)"
      )
    )
  }

  @Test func previewWiringShowsCannedProductsWithoutANetwork() async {
    let products = await Result { try await AppDependencies.preview.productRepository.products() }
    #expect(
      (try? products.get()) == PreviewProductRepository.products,
      guide.task(5, "the preview wiring should answer PreviewProductRepository.products, got \(products)")
    )
    let viewModel = AppDependencies.preview.makeProductListViewModel()
    await viewModel.load()
    #expect(
      viewModel.state == .loaded(PreviewProductRepository.products),
      guide.task(2, "the preview view model should show the canned products, got \(viewModel.state)")
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
