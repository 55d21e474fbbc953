/// Why the classroom refused a request, or could not open its room: each case
/// has the status code a client gets and the sentence it reads.
public enum ClassroomError: Error, Sendable, Equatable, CustomStringConvertible {
  /// The body broke a rule of the request; the text names the field.
  case malformed(String)
  /// The body is larger than `limit` bytes.
  case tooLarge(limit: Int)
  /// No join code, or the wrong one.
  case wrongCode
  /// No instructor token, or the wrong one.
  case wrongToken
  /// The learner key names nobody in the room: they left, or never joined.
  case unknownLearner
  /// Another laptop (or a join without a machine key) has this nickname.
  case nameTaken(String)
  /// The instructor asked to forget a nickname nobody in the room has.
  case noSuchLearner(String)
  /// The room holds `limit` learners already.
  case roomFull(limit: Int)
  /// The learner posts more often than the room allows; try again after `seconds`.
  case tooOften(seconds: Int)
  /// No such page or endpoint, or the wrong method for it.
  case notFound
  case wrongMethod(allowed: String)
  /// The room's file could not be opened or written.
  case storage(String)

  /// The HTTP status the classroom answers with.
  public var status: Int {
    switch self {
    case .malformed: 400
    case .tooLarge: 413
    case .wrongCode, .wrongToken: 401
    case .unknownLearner, .noSuchLearner: 404
    case .nameTaken: 409
    case .roomFull: 403
    case .tooOften: 429
    case .notFound: 404
    case .wrongMethod: 405
    case .storage: 500
    }
  }

  public var description: String {
    switch self {
    case .malformed(let reason): "Malformed request: \(reason)."
    case .tooLarge(let limit): "The body is larger than \(limit) bytes."
    case .wrongCode: "Wrong or missing join code: ask the instructor for the code `course classroom` printed."
    case .wrongToken: "Wrong or missing instructor token: open the address `course classroom` printed."
    case .unknownLearner: "This laptop is not in the room (it left, or the room is new): run `course join` again."
    case .nameTaken(let name):
      "Someone in the room is already called \(name), from another laptop: join with another --name. "
        + "(The laptop that joined as \(name) gets its row back by running the same `course join` again.)"
    case .noSuchLearner(let name): "Nobody in the room is called \(name)."
    case .roomFull(let limit): "The room is full: it holds at most \(limit) learners."
    case .tooOften(let seconds): "Too many snapshots from this laptop: the next is welcome in \(seconds) s."
    case .notFound: "No such page."
    case .wrongMethod(let allowed): "Use \(allowed) here."
    case .storage(let reason): "The room's file failed: \(reason)"
    }
  }

  /// Why, in a few words, for the classroom's log: `name taken by another machine`.
  public var reason: String {
    switch self {
    case .malformed(let reason): "malformed: \(reason)"
    case .tooLarge(let limit): "body past \(limit) bytes"
    case .wrongCode: "wrong or missing join code"
    case .wrongToken: "wrong or missing instructor token"
    case .unknownLearner: "unknown learner key (left, forgotten, or a new room)"
    case .nameTaken: "name taken by another machine"
    case .noSuchLearner(let name): "nobody called \(name)"
    case .roomFull(let limit): "room full (\(limit) learners)"
    case .tooOften(let seconds): "too often (next in \(seconds) s)"
    case .notFound: "no such page"
    case .wrongMethod(let allowed): "wrong method (use \(allowed))"
    case .storage(let reason): "room file failed: \(reason)"
    }
  }
}
