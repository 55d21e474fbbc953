import Foundation

/// Writes swift-testing event streams (JSON Lines, schema version 0) for tests that need one.
///
/// The records carry the fields `course` reads, in the shape swift-testing 6.3.1
/// writes them (checked against a real `swift test
/// --experimental-event-stream-output` run of Lesson01Tests).
enum EventStreamFixture {
  /// A run of one suite whose functions are `tests`.
  ///
  /// - Parameters:
  ///   - failing: Tests that record a failing issue and end.
  ///   - knownIssues: Tests that record a known issue (`withKnownIssue`) and pass.
  ///   - skipped: Tests the run skips (never started), as a `.enabled(if:)` trait does.
  ///   - running: Tests that start and never end (after their failing issues, if `failing` names them too).
  ///   - unstarted: Tests that never start, as when the run is stopped or crashes first.
  ///   - parameterized: Tests whose issues come from several test cases.
  ///   - ended: Whether the run reached `runEnded`.
  ///   - comments: What a failing or skipped test's comments say, by test: an issue's comment
  ///     goes in `_comments` and as a `details` message, as swift-testing writes it; a skip's
  ///     only in the runner's wording (`Test x() skipped: "…"`), so both sources get read.
  static func run(
    tests: [String], failing: [String] = [], knownIssues: [String] = [], skipped: [String] = [],
    running: [String] = [], unstarted: [String] = [],
    parameterized: [String] = [], ended: Bool = true, comments: [String: String] = [:]
  ) -> String {
    func id(_ name: String) -> String { "Demo01Tests.DemoTests/\(name)/DemoTests.swift:1:1" }
    func json(_ text: String) -> String {
      "\"" + text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
    func event(_ kind: String, _ test: String?, extra: String = "") -> String {
      let testID = test.map { #","testID":"\#(id($0))""# } ?? ""
      var messages = #"{"symbol":"default","text":"…"}"#
      var commentField = ""
      if let test, let comment = comments[test] {
        if kind == "issueRecorded" {
          messages = #"{"symbol":"fail","text":"Expectation failed: x"},{"symbol":"details","text":\#(json(comment))}"#
          commentField = #""_comments":[\#(json(comment))],"#
        } else if kind == "testSkipped" {
          messages = #"{"symbol":"skip","text":\#(json("Test \(test) skipped: \"\(comment)\""))}"#
        }
      }
      return #"{"kind":"event","payload":{\#(commentField)"instant":{"absolute":1,"since1970":1},"kind":"\#(kind)","#
        + #""messages":[\#(messages)]\#(testID)\#(extra)},"version":0}"#
    }
    func issue(known: Bool) -> String {
      #","issue":{"isKnown":\#(known),"sourceLocation":{"fileID":"Demo01Tests/DemoTests.swift","line":2,"column":3}}"#
    }
    var lines = tests.map { name in
      #"{"kind":"test","payload":{"id":"\#(id(name))","isParameterized":\#(parameterized.contains(name)),"#
        + #""kind":"function","name":"\#(name)","sourceLocation":{"fileID":"Demo01Tests/DemoTests.swift","#
        + #""line":1,"column":1}},"version":0}"#
    }
    lines.append(
      #"{"kind":"test","payload":{"id":"Demo01Tests.DemoTests","kind":"suite","name":"DemoTests","#
        + #""sourceLocation":{"fileID":"Demo01Tests/DemoTests.swift","line":1,"column":1}},"version":0}"#)
    lines.append(event("runStarted", nil))
    lines += skipped.map { event("testSkipped", $0) }
    let started = tests.filter { !skipped.contains($0) && !unstarted.contains($0) }
    lines += started.map { event("testStarted", $0) }
    for name in started {
      let cases = parameterized.contains(name) ? 3 : 1
      for _ in 0..<cases {
        if failing.contains(name) { lines.append(event("issueRecorded", name, extra: issue(known: false))) }
        if knownIssues.contains(name) { lines.append(event("issueRecorded", name, extra: issue(known: true))) }
      }
      if !running.contains(name) { lines.append(event("testEnded", name)) }
    }
    if ended { lines.append(event("runEnded", nil)) }
    return lines.joined(separator: "\n") + "\n"
  }
}
