/// The habits of a real server that the fake keeps, each of which can be turned
/// off for a test or from `course serve`'s admin route (`habits kind`).
///
/// All are on by default: a reference solution must hold against them. Turning
/// them off gives the kind fake of a tutorial, to show a learner what a client
/// that only works against a kind server looks like.
public struct ServerHabits: OptionSet, Sendable, Hashable {
  public let rawValue: Int

  public init(rawValue: Int) {
    self.rawValue = rawValue
  }

  /// An added product's id is above every id by a gap a client cannot predict; off, it is the highest plus one.
  public static let serverIDs = ServerHabits(rawValue: 1 << 0)
  /// The server stamps `meta.updatedAt` on every add and update; off, it keeps what the body says.
  public static let serverStamps = ServerHabits(rawValue: 1 << 1)
  /// A product's answer carries an `ETag`, and a stale `If-Match` is refused with 412.
  public static let versionChecks = ServerHabits(rawValue: 1 << 2)
  /// A request whose `Idempotency-Key` is still being answered gets 409.
  public static let keysInFlight = ServerHabits(rawValue: 1 << 3)
  /// Every answer carries a `Date` header.
  public static let datedAnswers = ServerHabits(rawValue: 1 << 4)

  /// Every habit: the default.
  public static let real: ServerHabits = [.serverIDs, .serverStamps, .versionChecks, .keysInFlight, .datedAnswers]
  /// None: answers in order, ids as max + 1, no versions, no 409 for a key in flight.
  public static let kind: ServerHabits = []
}
