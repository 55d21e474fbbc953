/// A fault together with where it applies and how often.
struct FaultRule: Sendable {
  let fault: Fault
  /// `nil` aims at every route.
  let route: Route?
  /// `nil` keeps the fault until `clearFaults()`.
  var remaining: Int?
}
