import Foundation
import StageTesting
import Synchronization
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// A remote data source with canned answers: no URL, no JSON, no HTTP.
struct StubProductRemoteDataSource: ProductRemoteDataSource {
  var page: Result<ProductPage, RemoteDataSourceError>

  func products(limit: Int, skip: Int) async throws -> ProductPage { try page.get() }
  func product(id: Int) async throws -> Product {
    guard let product = try page.get().products.first(where: { $0.id == id }) else {
      throw RemoteDataSourceError.http(status: 404, message: nil)
    }
    return product
  }
}

/// A remote data source that gives each call the next of its answers, a page or any error.
final class ScriptedProductRemoteDataSource: ProductRemoteDataSource {
  private let answers: Mutex<[Result<ProductPage, any Error>]>
  private let asked = Mutex<[String]>([])

  init(_ answers: [Result<ProductPage, any Error>]) { self.answers = Mutex(answers) }

  /// The pages asked for, oldest first: `limit 30, skip 0`.
  var requests: [String] { asked.withLock { $0 } }

  func products(limit: Int, skip: Int) async throws -> ProductPage {
    asked.withLock { $0.append("limit \(limit), skip \(skip)") }
    return try answers.withLock { $0.isEmpty ? .failure(RemoteDataSourceError.offline) : $0.removeFirst() }.get()
  }

  func product(id: Int) async throws -> Product { throw RemoteDataSourceError.http(status: 404, message: nil) }
}

/// Stage 02's point: the view model's tests need no HTTP at all.
@MainActor
@Suite(.timeLimit(.minutes(1)))
struct ProductListViewModelTests {
  static let threeProducts = ProductPage(
    products: [.sample(id: 1), .sample(id: 2), .sample(id: 3)], total: 3, skip: 0, limit: 3)

  @Test func showsWhatTheSourceReturns() async {
    let remote = ScriptedProductRemoteDataSource([.success(Self.threeProducts)])
    let viewModel = ProductListViewModel(remote: remote)
    await viewModel.load()
    #expect(
      remote.requests == ["limit 30, skip 0"],
      guide.task(
        6,
        "load() asks for the first page, 30 products skipping none: expected [limit 30, skip 0], got [\(remote.requests.joined(separator: "; "))]"
      ))
    #expect(
      viewModel.products.map(\.id) == [1, 2, 3] && viewModel.errorMessage == nil,
      guide.task(
        6,
        "a source answering products 1, 2, 3 should show them, got \(viewModel.products.map(\.id)) and errorMessage \(viewModel.errorMessage ?? "nil")"
      )
    )
    #expect(!viewModel.isLoading, guide.task(6, "isLoading should be false after the load"))
  }

  @Test func showsAnEmptyPageWithoutAnError() async {
    let empty = ProductPage(products: [], total: 0, skip: 0, limit: 0)
    let viewModel = ProductListViewModel(remote: StubProductRemoteDataSource(page: .success(empty)))
    await viewModel.load()
    #expect(
      viewModel.products.isEmpty && viewModel.errorMessage == nil,
      guide.task(
        6,
        "an empty page is not a failure: expected no products and no errorMessage, got \(viewModel.errorMessage ?? "nil")"
      )
    )
  }

  @Test func tellsTheUserWhatFailed() async {
    let failures: [(error: RemoteDataSourceError, expected: String)] = [
      (.http(status: 500, message: "Database unavailable"), "500"), (.offline, "offline"),
      (.decoding("bad"), "cannot read"),
    ]
    await guide.expectEvery(
      failures, task: 6, "when the source throws, errorMessage should say what failed and isLoading end false"
    ) { error, expected in
      let viewModel = ProductListViewModel(remote: StubProductRemoteDataSource(page: .failure(error)))
      await viewModel.load()
      let message = viewModel.errorMessage ?? "nil"
      guard !message.localizedCaseInsensitiveContains(expected) || viewModel.isLoading else { return nil }
      return (
        "\(shown(error)) should mention \"\(expected)\", got \"\(message)\"; isLoading \(viewModel.isLoading)", nil
      )
    }
  }

  @Test func aCancelledLoadKeepsTheProductsShown() async throws {
    try await expectCancellationKeepsState(after: .success(Self.threeProducts), described: "showing products 1, 2, 3")
  }

  @Test func aCancelledLoadKeepsTheMessageShown() async throws {
    try await expectCancellationKeepsState(
      after: .failure(RemoteDataSourceError.offline), described: "showing the offline message")
  }

  /// Loads once with `first`, then once more with a load that ends in `CancellationError`,
  /// and expects the second to change nothing the screen shows.
  func expectCancellationKeepsState(
    after first: Result<ProductPage, any Error>, described before: String,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws {
    let viewModel = ProductListViewModel(
      remote: ScriptedProductRemoteDataSource([first, .failure(CancellationError())]))
    await viewModel.load()
    let shown = (products: viewModel.products.map(\.id), errorMessage: viewModel.errorMessage)
    let expectedIDs = (try? first.get())?.products.map(\.id) ?? []
    // A failure shows its sentence (offline here, Task 6); a success shows none.
    let messageFits =
      first.failure == nil
      ? shown.errorMessage == nil : shown.errorMessage?.localizedCaseInsensitiveContains("offline") == true
    try #require(
      shown.products == expectedIDs && messageFits,
      guide.task(
        6, "the first load should end \(before), got \(shown.products) and errorMessage \(shown.errorMessage ?? "nil")"),
      sourceLocation: sourceLocation
    )
    await viewModel.load()
    #expect(
      viewModel.products.map(\.id) == shown.products && viewModel.errorMessage == shown.errorMessage
        && !viewModel.isLoading,
      guide.task(
        6,
        "a load that ends in CancellationError (the view went away) is no failure: the screen should keep \(before) and show no new message; got \(viewModel.products.map(\.id)), errorMessage \(viewModel.errorMessage ?? "nil"), isLoading \(viewModel.isLoading)"
      ),
      sourceLocation: sourceLocation
    )
  }
}
