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
/// returns must keep every rule of the domain (Task 4), the date's included (Task 3).
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
      let problems = ruleViolations(page, sentAs: body)
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

  /// The domain's rules, written independently of the mapper: every rule of the
  /// stage doc's table, and the page's own. `body` is what the API sent, for the
  /// date rule: a `Date` cannot show whether the text it came from named a real moment.
  func ruleViolations(_ page: ProductPage, sentAs body: [UInt8]) -> [String] {
    var problems: [String] = []
    let sent = sentTimestamps(in: body)
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
      let texts = [("title", product.title), ("description", product.description), ("category", product.category)]
      for (field, text) in texts + [("brand", product.brand ?? "")] where text.unicodeScalars.contains("\u{0}") {
        problems.append("\(id): a NUL in \(field)")
      }
      if let sent = sent[product.id] {
        if let moment = apiMoment(sent) {
          if abs(moment.timeIntervalSince(product.updatedAt)) >= 0.000_001 {
            problems.append("\(id): updatedAt \(product.updatedAt.timeIntervalSince1970) from \"\(sent)\"")
          }
        } else {
          problems.append("\(id): updatedAt from \"\(sent)\", which names no real moment in the API's shape")
        }
      }
    }
    return problems
  }

  /// The `meta.updatedAt` text the body gives each product id, read with
  /// `JSONSerialization`, not with the learner's decoder: for ids that exactly
  /// one record has, and that record a text there.
  func sentTimestamps(in body: [UInt8]) -> [Int: String] {
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any],
      let records = object["products"] as? [[String: Any]]
    else { return [:] }
    var texts: [Int: String] = [:]
    var seen: [Int: Int] = [:]
    for record in records {
      guard let number = record["id"] as? NSNumber, let id = Int(exactly: number.doubleValue) else { continue }
      seen[id, default: 0] += 1
      texts[id] = (record["meta"] as? [String: Any])?["updatedAt"] as? String
    }
    return texts.filter { seen[$0.key] == 1 }
  }
}

/// The moment `text` names when it has the shape of the API's timestamps
/// (`2025-04-30T09:41:02Z`, with or without a `.` and 1 to 9 digits of fraction, and
/// `Z` or an offset such as `+02:00`) and its numbers name a real moment; `nil` otherwise.
/// The suite's own reading of Task 3's rule, for checking the mapper's.
func apiMoment(_ text: String) -> Date? {
  let bytes = Array(text.utf8)
  func digits(_ range: Range<Int>) -> Int? {
    guard range.upperBound <= bytes.count, !range.isEmpty else { return nil }
    var value = 0
    for byte in bytes[range] {
      guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
      value = value * 10 + Int(byte - UInt8(ascii: "0"))
    }
    return value
  }
  func byte(_ at: Int, is character: Unicode.Scalar) -> Bool {
    at < bytes.count && bytes[at] == UInt8(ascii: character)
  }
  guard byte(4, is: "-"), byte(7, is: "-"), byte(10, is: "T"), byte(13, is: ":"), byte(16, is: ":"),
    let year = digits(0..<4), let month = digits(5..<7), let day = digits(8..<10), let hour = digits(11..<13),
    let minute = digits(14..<16), let second = digits(17..<19)
  else { return nil }
  var end = 19
  var nanosecond = 0
  if byte(19, is: ".") {
    var last = 20
    while last < bytes.count, bytes[last] >= UInt8(ascii: "0"), bytes[last] <= UInt8(ascii: "9") { last += 1 }
    guard (21...29).contains(last), let fraction = digits(20..<last) else { return nil }
    nanosecond = fraction * Int(pow(10, Double(29 - last)))
    end = last
  }
  let offset: Int
  if bytes.count == end + 1, byte(end, is: "Z") {
    offset = 0
  } else if bytes.count == end + 6, byte(end, is: "+") || byte(end, is: "-"), byte(end + 3, is: ":"),
    let hours = digits((end + 1)..<(end + 3)), hours <= 23, let minutes = digits((end + 4)..<(end + 6)), minutes <= 59
  {
    offset = (hours * 3_600 + minutes * 60) * (byte(end, is: "-") ? -1 : 1)
  } else {
    return nil
  }
  let components = DateComponents(
    calendar: Calendar(identifier: .gregorian), timeZone: TimeZone(secondsFromGMT: offset), year: year, month: month,
    day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
  return components.isValidDate ? components.date : nil
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
  #""Lamp\u0000shade""#, #""\u0000""#,
]

/// Where the values of the fields the app reads sit in `body`.
func valueSpans(in body: [UInt8]) -> [Range<Int>] {
  let text = String(decoding: body, as: UTF8.self)
  let fields = [
    "id", "title", "description", "category", "brand", "price", "discountPercentage", "rating", "stock", "updatedAt",
    "total", "skip", "limit",
  ]
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
