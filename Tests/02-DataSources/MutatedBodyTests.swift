import CourseFixtures
import FakeCatalog
import Foundation
import StageTesting
import Testing

#if SOLUTION
  @testable import Solution02
#else
  @testable import Lesson02
#endif

/// Untrusted bytes: real page bodies, mutated by a seeded generator, sent by the
/// fake API to the remote source. Nothing may crash, and whatever the source
/// returns must keep the domain's rules (Task 4).
@Suite(.timeLimit(.minutes(1)))
struct MutatedBodyTests {
  /// A real page: the first three records, as the list endpoint sends them.
  static let realPage: [UInt8] = {
    let records = ProductFixtures.records.prefix(3).map { String(decoding: $0.encoded(), as: UTF8.self) }
    return Array(#"{"products": [\#(records.joined(separator: ","))], "total": 194, "skip": 0, "limit": 3}"#.utf8)
  }()

  /// Where `mutate` finds the values to replace, computed once.
  static let spans = valueSpans(in: realPage)

  /// 800 mutations in four runs of 200, one seed each, so they run in parallel.
  @Test(arguments: 0..<4)
  func mutatedBodiesNeverBreakTheDomainsRules(run: UInt64) async throws {
    let (task, prefix) = await owner(of: 4)
    let api = FakeCatalogAPI()
    let source = source(for: api)
    api.inject(.body(String(decoding: Self.realPage, as: UTF8.self)), on: .list, times: 1)
    _ = try await guide.attempt(task, "\(prefix)the unmutated page of 3 real records should come through") {
      try await source.products(limit: 30, skip: 0)
    }
    var generator = SplitMix64(seed: 0x5EED_0002 + run)
    var accepted = 0
    var broken: [String] = []
    for round in 0..<200 {
      let body = mutate(Self.realPage, spans: Self.spans, using: &generator)
      api.inject(.body(String(decoding: body, as: UTF8.self)), on: .list, times: 1)
      // Refused: what a mutated body should be, as long as it is one of the data layer's errors.
      guard let page = try? await source.products(limit: 30, skip: 0) else { continue }
      accepted += 1
      let problems = ruleViolations(page)
      if !problems.isEmpty { broken.append("mutation \(run)-\(round): \(problems.joined(separator: ", "))") }
    }
    #expect(
      broken.count == 0,
      guide.task(
        task,
        "\(prefix)\(broken.count) of \(accepted) accepted mutated pages break the domain's rules; the mapper must refuse them. First: \(broken.prefix(3).joined(separator: " | "))"
      )
    )
  }

  /// The domain's rules, written independently of the mapper.
  func ruleViolations(_ page: ProductPage) -> [String] {
    var problems: [String] = []
    if page.total < 0 || page.skip < 0 || page.limit < 0 {
      problems.append("paging total \(page.total), skip \(page.skip), limit \(page.limit)")
    }
    if page.products.count > page.limit { problems.append("\(page.products.count) products, limit \(page.limit)") }
    if !page.products.isEmpty && page.skip > page.total - page.products.count {
      problems.append("skip \(page.skip) + \(page.products.count) beyond total \(page.total)")
    }
    if Set(page.products.map(\.id)).count != page.products.count { problems.append("a repeated id") }
    for product in page.products {
      let id = "product \(product.id)"
      if product.title.allSatisfy(\.isWhitespace) { problems.append("\(id): blank title") }
      if !product.price.isFinite || product.price < 0 { problems.append("\(id): price \(product.price)") }
      if product.stock < 0 { problems.append("\(id): stock \(product.stock)") }
      if !(0...100).contains(product.discountPercentage) {
        problems.append("\(id): discountPercentage \(product.discountPercentage)")
      }
      if !(0...5).contains(product.rating) { problems.append("\(id): rating \(product.rating)") }
    }
    return problems
  }
}

/// Mutates a copy of `page`, whose field values sit at `spans`: half the time one field the app reads gets a hostile
/// value first (a byte flip rarely finds those), then up to three bytes change:
/// flipped, dropped, inserted, a span repeated, or a run of brackets.
func mutate(_ page: [UInt8], spans: [Range<Int>], using generator: inout SplitMix64) -> [UInt8] {
  var body = page
  if Bool.random(using: &generator), let span = spans.randomElement(using: &generator) {
    body.replaceSubrange(span, with: Array((hostileValues.randomElement(using: &generator) ?? "0").utf8))
  }
  let alphabet = Array(#"[]{}",:0123456789.eE+- tfnul\"#.utf8)
  for _ in 0..<Int.random(in: 0...3, using: &generator) where !body.isEmpty {
    let at = Int.random(in: 0..<body.count, using: &generator)
    switch Int.random(in: 0..<6, using: &generator) {
    case 0: body[at] = UInt8.random(in: 0...255, using: &generator)
    case 1: body.remove(at: at)
    case 2: body.insert(alphabet.randomElement(using: &generator) ?? 0, at: at)
    case 3:
      let end = min(body.count, at + Int.random(in: 1...80, using: &generator))
      body.insert(contentsOf: body[at..<end], at: at)
    case 4:
      let depth = Int.random(in: 60...2_000, using: &generator)
      body.insert(contentsOf: Array(repeating: UInt8(ascii: "["), count: depth), at: at)
    default: body[at] = alphabet.randomElement(using: &generator) ?? 0
    }
  }
  return body
}

/// Values that break a rule, or sit just inside one.
let hostileValues = [
  "-1", "-0.01", "0", "1", "5.01", "100.5", "1e400", "9223372036854775807", "-9223372036854775808",
  #""""#, #"" \n ""#, #""2025-02-30T09:41:02.053Z""#, #""2025-04-30T25:41:02Z""#, #""2025-04-30T09:41:02ZZ""#,
]

/// Where the values of the fields the app reads sit in `body`.
func valueSpans(in body: [UInt8]) -> [Range<Int>] {
  let text = String(decoding: body, as: UTF8.self)
  let fields = ["id", "title", "price", "discountPercentage", "rating", "stock", "updatedAt", "total", "skip", "limit"]
  var spans: [Range<Int>] = []
  for field in fields {
    var searchFrom = text.startIndex
    while let key = text.range(of: "\"\(field)\":", range: searchFrom..<text.endIndex) {
      searchFrom = key.upperBound
      let rest = text[key.upperBound...].drop { $0 == " " }
      let value: Substring
      if rest.first == "\"" {
        let closing = rest.dropFirst().firstIndex(of: "\"") ?? rest.endIndex
        value = rest[rest.startIndex..<min(rest.index(after: closing), rest.endIndex)]
      } else {
        value = rest.prefix { $0 != "," && $0 != "}" && $0 != " " }
      }
      let start = text.utf8.distance(from: text.startIndex, to: value.startIndex)
      spans.append(start..<(start + value.utf8.count))
    }
  }
  return spans
}
