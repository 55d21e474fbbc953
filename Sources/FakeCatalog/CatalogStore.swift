import CourseFixtures
import Foundation

/// The records behind the fake API and the DummyJSON rules for reading and changing them.
///
/// Unlike the real service, which only simulates writes, the fake keeps them, so
/// a test can add a product and read it back.
///
/// Writes honour an `Idempotency-Key` header: the first write with a key is
/// applied and its answer kept; a repeat with the same method, path and body
/// gets that answer again, marked `Idempotent-Replayed: true`, and changes
/// nothing; a repeat with a different request is refused with 422.
///
/// It also keeps the habits of real servers that a kind fake would not:
/// - the server stamps `meta.updatedAt` on every add and update, whatever the
///   body says, so no device clock decides which copy is newer;
/// - a product's answer carries an `ETag`, its `meta.updatedAt` in quotes, and a
///   write with an `If-Match` naming another version is refused with 412;
/// - an added product's id is the server's choice: above every id it holds, by
///   a gap a client cannot predict (seeded, so a test run repeats).
struct CatalogStore: Sendable {
  private(set) var products: [JSONValue]
  /// The articles behind `GET /articles`, in no particular order: each answer sorts them.
  var articles: [JSONValue]
  /// Which habits of a real server it keeps.
  var habits: ServerHabits = .real
  /// The last `meta.updatedAt` the server stamped; each stamp is later than the last.
  private var lastStamp = Date.distantPast
  /// Where the id gaps come from: seeded, so a test run repeats.
  private var idGaps = SplitMix64(seed: 0x5EED_CA7A_1061)

  /// The answers to keyed writes, by key; the oldest go first past `keptKeys`.
  private var keyedReplies: [String: KeyedReply] = [:]
  private var keyOrder: [String] = []
  /// How many idempotency keys are remembered.
  static let keptKeys = 10_000

  private struct KeyedReply: Sendable {
    let method: String
    let path: String
    let body: Data?
    let reply: Reply
  }

  init(products: [JSONValue], articles: [JSONValue] = ArticleFixtures.records) {
    self.products = products
    self.articles = articles
  }

  /// Which route a method and path belong to, or `nil` for an unknown one.
  static func route(method: String, path: String) -> Route? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
    if parts.first == "articles" {
      switch (method, parts.count) {
      case ("GET", 1): return .articles
      case ("GET", 2): return .article
      default: return nil
      }
    }
    guard parts.first == "products" else { return nil }
    switch (method, parts.count) {
    case ("GET", 1): return .list
    case ("GET", 2) where parts[1] == "search": return .search
    case ("GET", 2): return .product
    case ("POST", 2) where parts[1] == "add": return .add
    case ("PUT", 2), ("PATCH", 2): return .update
    case ("DELETE", 2): return .delete
    default: return nil
    }
  }

  /// Answers a request the way DummyJSON does, changing the records for writes
  /// and replaying the answer to a write whose `Idempotency-Key` it has seen.
  mutating func reply(to request: RecordedRequest) -> Reply {
    guard request.method != "GET", request.method != "HEAD", let key = request.header("Idempotency-Key") else {
      return answer(request)
    }
    if let kept = keyedReplies[key] {
      guard kept.method == request.method, kept.path == request.path, kept.body == request.body else {
        return .message(
          "Idempotency-Key '\(key)' was already used for \(kept.method) \(kept.path) with another body", status: 422)
      }
      var replay = kept.reply
      replay.headers["Idempotent-Replayed"] = "true"
      return replay
    }
    let reply = answer(request)
    keyedReplies[key] = KeyedReply(method: request.method, path: request.path, body: request.body, reply: reply)
    keyOrder.append(key)
    if keyOrder.count > Self.keptKeys {
      keyedReplies[keyOrder.removeFirst()] = nil
    }
    return reply
  }

  private mutating func answer(_ request: RecordedRequest) -> Reply {
    guard let route = request.route else {
      return .message("Route \(request.method) \(request.path) not found", status: 404)
    }
    let idText = request.url.lastPathComponent
    switch route {
    case .list:
      return page(of: products, request: request)
    case .search:
      let term = (request.query("q") ?? "").lowercased()
      let found = products.filter { product in
        term.isEmpty
          || ["title", "description", "category", "brand"].contains { key in
            product[key]?.stringValue?.lowercased().contains(term) ?? false
          }
      }
      return page(of: found, request: request)
    case .product:
      guard let index = index(of: idText), case .object(let fields) = products[index] else {
        return notFound(idText)
      }
      return versioned(.json(products[index]), fields)
    case .add:
      guard case .object(var fields) = body(of: request) else {
        return .message("Request body must be a JSON object", status: 400)
      }
      let gap = habits.contains(.serverIDs) ? Double(nextGap()) : 0
      fields["id"] = .number((products.compactMap { $0["id"]?.numberValue }.max() ?? 0) + 1 + gap)
      if habits.contains(.serverStamps) { fields["meta"] = stamped(fields["meta"]) }
      products.append(.object(fields))
      return versioned(.json(.object(fields), status: 201), fields)
    case .update:
      guard let index = index(of: idText) else { return notFound(idText) }
      guard case .object(let changes) = body(of: request),
        case .object(var fields) = products[index]
      else {
        return .message("Request body must be a JSON object", status: 400)
      }
      if habits.contains(.versionChecks), let refusal = Self.staleVersion(request, fields, idText) { return refusal }
      fields.merge(changes.filter { $0.key != "id" }) { _, new in new }
      if habits.contains(.serverStamps) { fields["meta"] = stamped(fields["meta"]) }
      products[index] = .object(fields)
      return versioned(.json(.object(fields)), fields)
    case .delete:
      guard let index = index(of: idText), case .object(var fields) = products[index] else {
        return notFound(idText)
      }
      if habits.contains(.versionChecks), let refusal = Self.staleVersion(request, fields, idText) { return refusal }
      products.remove(at: index)
      fields["isDeleted"] = .bool(true)
      return .json(.object(fields))
    case .articles:
      return .json(.array(Self.newestFirst(articles)))
    case .article:
      guard let article = articles.first(where: { $0["id"]?.stringValue == idText }) else {
        return .message("Article with id '\(idText)' not found", status: 404)
      }
      return .json(article)
    }
  }

  /// Articles by `updated_at`, newest first, as instants (a date with fractional
  /// seconds and one without compare by time, not by text); ties by id.
  static func newestFirst(_ articles: [JSONValue]) -> [JSONValue] {
    let dated = articles.map { article in
      (article, article["updated_at"]?.stringValue.flatMap(instant) ?? -.infinity, article["id"]?.stringValue ?? "")
    }
    return dated.sorted { ($0.1, $0.2) > ($1.1, $1.2) }.map(\.0)
  }

  // MARK: Versions and ids, as a real server keeps them

  /// The product's version: its `meta.updatedAt`, as the `ETag` and `If-Match` carry it.
  static func version(of fields: [String: JSONValue]) -> String? {
    fields["meta"]?["updatedAt"]?.stringValue
  }

  /// The reply with the product's `ETag`, when the store checks versions.
  private func versioned(_ reply: Reply, _ fields: [String: JSONValue]) -> Reply {
    guard habits.contains(.versionChecks), let version = Self.version(of: fields) else { return reply }
    var reply = reply
    reply.headers["ETag"] = "\"\(version)\""
    return reply
  }

  /// A 412 when the request's `If-Match` names a version other than the product's.
  ///
  /// As a real server does, the entity tag is compared as text (RFC 9110,
  /// section 13.1.1): `"2025-04-30T09:41:02.053Z"` and the same instant spelled
  /// `"2025-04-30T09:41:02.053+00:00"` are two versions. A client sends back what
  /// it was sent, never a date it formatted itself.
  private static func staleVersion(_ request: RecordedRequest, _ fields: [String: JSONValue], _ idText: String)
    -> Reply?
  {
    guard let ifMatch = request.header("If-Match")?.trimmingCharacters(in: .whitespaces), ifMatch != "*" else {
      return nil
    }
    let asked = ifMatch.replacingOccurrences(of: "W/", with: "").trimmingCharacters(
      in: CharacterSet(charactersIn: "\""))
    let current = version(of: fields)
    if let current, asked == current { return nil }
    var reply = Reply.message(
      "Product with id '\(idText)' changed since version \(asked); it is at \(current ?? "no version")", status: 412)
    if let current { reply.headers["ETag"] = "\"\(current)\"" }
    return reply
  }

  private static func instant(_ text: String) -> TimeInterval? {
    let styles = [
      Date.ISO8601FormatStyle(includingFractionalSeconds: true),
      Date.ISO8601FormatStyle(includingFractionalSeconds: false),
    ]
    for style in styles {
      if let date = try? style.parse(text) { return date.timeIntervalSince1970 }
    }
    return nil
  }

  /// `meta` with the server's `updatedAt`: now, and always later than the last stamp.
  private mutating func stamped(_ meta: JSONValue?) -> JSONValue {
    var fields: [String: JSONValue] = [:]
    if case .object(let existing)? = meta { fields = existing }
    let now = max(Date(), lastStamp.addingTimeInterval(0.001))
    lastStamp = now
    fields["updatedAt"] = .string(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(now))
    return .object(fields)
  }

  /// The gap above the highest id for the next added product: 0 to 96, unpredictable to a client.
  private mutating func nextGap() -> Int {
    Int(idGaps.next() % 97)
  }

  private func index(of idText: String) -> Int? {
    guard let id = Double(idText) else { return nil }
    return products.firstIndex { $0["id"]?.numberValue == id }
  }

  private func notFound(_ idText: String) -> Reply {
    .message("Product with id '\(idText)' not found", status: 404)
  }

  private func body(of request: RecordedRequest) -> JSONValue? {
    request.body.flatMap { try? JSONValue(data: $0) }
  }

  /// A DummyJSON list page: `limit` defaults to 30, and `limit=0` means every record.
  private func page(of records: [JSONValue], request: RecordedRequest) -> Reply {
    let skip = max(0, request.query("skip").flatMap(Int.init) ?? 0)
    let requestedLimit = max(0, request.query("limit").flatMap(Int.init) ?? 30)
    let limit = requestedLimit == 0 ? records.count : requestedLimit
    let slice = records.dropFirst(skip).prefix(limit)
    return .json(
      .object([
        "products": .array(Array(slice)),
        "total": .number(Double(records.count)),
        "skip": .number(Double(skip)),
        "limit": .number(Double(slice.count)),
      ]))
  }
}
