import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// Task 4: JSON that decodes can still be nonsense. Whatever the source returns
/// keeps the domain's rules; a record or a page that breaks one is refused with
/// `invalidData` naming the field, and one refused product fails its page.
@Suite(.timeLimit(.minutes(1)))
struct DomainRuleTests {
  /// Records that decode but break one of the domain's rules, and the field the refusal must name.
  static let brokenRules: [(problem: String, record: String, field: String)] = [
    ("an empty title", record(title: #""""#), "title"),
    ("a blank title", record(title: #"" \n\t""#), "title"),
    ("a NUL inside the title", record(title: #""Lamp\u0000shade""#), "title"),
    ("a NUL inside the description", record(description: #""A\u0000lamp""#), "description"),
    ("a NUL inside the category", record(category: #""ho\u0000me""#), "category"),
    ("a NUL inside the brand", record(brand: #""Lu\u0000x""#), "brand"),
    ("a price of -1", record(price: "-1"), "price"),
    ("a price of -0.01", record(price: "-0.01"), "price"),
    ("a stock of -1", record(stock: "-1"), "stock"),
    ("a discount of 101%", record(discountPercentage: "101"), "discountPercentage"),
    ("a discount of -0.5%", record(discountPercentage: "-0.5"), "discountPercentage"),
    ("a rating of 5.5", record(rating: "5.5"), "rating"),
    ("a rating of -1", record(rating: "-1"), "rating"),
    ("a rating of 1e200", record(rating: "1e200"), "rating"),
  ]

  @Test func refusesValuesTheDomainForbids() async {
    let (task, prefix) = await owner(of: 4)
    await guide.expectEvery(
      Self.brokenRules, task: task,
      "\(prefix)a product that breaks a rule should be refused with RemoteDataSourceError.invalidData naming the product and the field"
    ) { problem, record, field in
      let outcome = await fetchProduct(answering: record)
      if isInvalidData(outcome.failure, naming: field) {
        guard !isInvalidData(outcome.failure, naming: "7") else { return nil }
        return ("\(problem) gave \(outcome.described), which names the field but not product 7", outcome.failure)
      }
      return ("\(problem) (\(field)) gave \(outcome.map { _ in "a Product" }.described)", outcome.failure)
    }
  }

  /// JSON has no NaN, and numbers beyond what a `Decimal` or a `Double` holds do not decode
  /// into one on this toolchain; whatever a decoder makes of them, no Product may carry them.
  @Test func numbersNoTypeHoldsNeverBecomeAProduct() async {
    let values: [(problem: String, record: String)] = [
      ("a price of 1e400", record(price: "1e400")), ("a price of -1e400", record(price: "-1e400")),
      ("a discount of 1e400", record(discountPercentage: "1e400")), ("a rating of 1e400", record(rating: "1e400")),
      ("a stock of 1e30", record(stock: "1e30")),
      (
        "an id of 9223372036854775808",
        record().replacingOccurrences(of: #""id": 7"#, with: #""id": 9223372036854775808"#)
      ),
    ]
    let (task, prefix) = await owner(of: 4)
    await guide.expectEvery(
      values, task: task, "\(prefix)a value no domain type can hold should be refused (.decoding or .invalidData)"
    ) { problem, record in
      let outcome = await fetchProduct(answering: record)
      if isInvalidData(outcome.failure) || isDecoding(outcome.failure) { return nil }
      return ("\(problem) gave \(outcome.map { "a Product priced \($0.price)" }.described)", outcome.failure)
    }
  }

  @Test func acceptsTheEdgesOfEachRange() async {
    let edges: [(problem: String, record: String)] = [
      ("a price of 0", record(price: "0")), ("a price of 0.01", record(price: "0.01")),
      ("a stock of 0", record(stock: "0")), ("a discount of 0%", record(discountPercentage: "0")),
      ("a discount of 100%", record(discountPercentage: "100")), ("a rating of 0", record(rating: "0")),
      ("a rating of 5", record(rating: "5")), ("a title with spaces around it", record(title: #"" Lamp ""#)),
      ("a brand", record(brand: #""Lux""#)), ("a thumbnail that is no URL", record(thumbnail: #""""#)),
    ]
    let (task, prefix) = await owner(of: 4)
    await guide.expectEvery(edges, task: task, "\(prefix)values at the edge of each rule are valid and should map") {
      problem, record in
      await fetchProduct(answering: record).failure.map { ("\(problem) gave the error \(shown($0))", $0) }
    }
  }

  static let three = [record(id: 1), record(id: 2), record(id: 3)]

  /// Pages whose numbers contradict themselves or their products, and the field the refusal must name.
  static let inconsistentPages: [(problem: String, page: String, field: String)] = [
    ("a negative total", page([], total: -1, limit: 0), "total"),
    ("a negative skip", page([], total: 0, skip: -1, limit: 0), "skip"),
    ("a negative limit", page([], total: 0, limit: -1), "limit"),
    ("3 products under a limit of 2", page(three, limit: 2), "limit"),
    ("products 193 to 195 of 194", page(three, skip: 192), "total"),
    ("a skip so large that skip + count overflows", page(three, skip: .max), "total"),
    ("product 2 twice", page([record(id: 1), record(id: 2), record(id: 2)]), "id 2"),
  ]

  @Test func refusesAnInconsistentPage() async {
    let (task, prefix) = await owner(of: 4)
    await guide.expectEvery(
      Self.inconsistentPages, task: task,
      "\(prefix)a page that is not what the API promises should be refused with RemoteDataSourceError.invalidData naming the field; a repeated id refuses the page, it is not trimmed"
    ) { problem, page, field in
      let outcome = await fetchPage(answering: page)
      guard !isInvalidData(outcome.failure, naming: field) else { return nil }
      return (
        "\(problem) (\(field)) gave \(outcome.map { "a page of \($0.products.map(\.id))" }.described)", outcome.failure
      )
    }
  }

  @Test func aPagePastTheEndIsEmptyNotInvalid() async throws {
    let outcome = await fetchPage(answering: page([], skip: 500, limit: 0))
    let empty = (try? outcome.get())?.products.isEmpty ?? false
    let (task, prefix) = empty ? (4, "") : await owner(of: 4)
    #expect(
      empty,
      guide.task(
        task,
        "\(prefix)skip 500 of 194 with no products is how the API answers past the end: expected an empty page, got \(outcome.described)",
        blaming: outcome.failure))
  }

  @Test func aConsistentPageMaps() async throws {
    let outcome = await fetchPage(answering: page(Self.three, limit: 3))
    let page = try? outcome.get()
    let kept = page.map { $0.products.map(\.id) == [1, 2, 3] && ($0.total, $0.skip, $0.limit) == (194, 0, 3) } ?? false
    let (task, prefix) = kept ? (4, "") : await owner(of: 4)
    #expect(
      kept,
      guide.task(
        task,
        "\(prefix)products 1 to 3 of 194 under a limit of 3 make a valid page: expected products [1, 2, 3], total 194, skip 0, limit 3; got \(outcome.described)",
        blaming: outcome.failure))
  }

  @Test func oneInvalidProductFailsThePage() async {
    let outcome = await fetchPage(answering: page([record(id: 1), record(id: 2, stock: "-5")]))
    let refused = isInvalidData(outcome.failure, naming: "stock")
    let (task, prefix) = refused ? (4, "") : await owner(of: 4)
    #expect(
      refused,
      guide.task(
        task,
        "\(prefix)product 2 has stock -5, so the page fails (not a page of product 1 alone): expected invalidData naming \"stock\", got \(outcome.map { "a page of \($0.products.map(\.id))" }.described)",
        blaming: outcome.failure)
    )
  }
}
