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
struct CatalogStore: Sendable {
  private(set) var products: [JSONValue]

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

  init(products: [JSONValue]) {
    self.products = products
  }

  /// Which route a method and path belong to, or `nil` for an unknown one.
  static func route(method: String, path: String) -> Route? {
    let parts = path.split(separator: "/", omittingEmptySubsequences: true)
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
      guard let index = index(of: idText) else { return notFound(idText) }
      return .json(products[index])
    case .add:
      guard case .object(var fields) = body(of: request) else {
        return .message("Request body must be a JSON object", status: 400)
      }
      let nextID = (products.compactMap { $0["id"]?.numberValue }.max() ?? 0) + 1
      fields["id"] = .number(nextID)
      products.append(.object(fields))
      return .json(.object(fields), status: 201)
    case .update:
      guard let index = index(of: idText) else { return notFound(idText) }
      guard case .object(let changes) = body(of: request),
        case .object(var fields) = products[index]
      else {
        return .message("Request body must be a JSON object", status: 400)
      }
      fields.merge(changes.filter { $0.key != "id" }) { _, new in new }
      products[index] = .object(fields)
      return .json(.object(fields))
    case .delete:
      guard let index = index(of: idText), case .object(var fields) = products[index] else {
        return notFound(idText)
      }
      products.remove(at: index)
      fields["isDeleted"] = .bool(true)
      return .json(.object(fields))
    }
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
