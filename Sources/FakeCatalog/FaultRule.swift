/// A fault together with where it applies and how often.
public struct FaultRule: Sendable, Hashable {
  /// What goes wrong.
  public let fault: Fault
  /// `nil` aims at every route.
  public let route: Route?
  /// How many more requests it affects; `nil` keeps the fault until `clearFaults()`.
  public internal(set) var remaining: Int?
}
