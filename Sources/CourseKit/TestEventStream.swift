import Foundation

/// What swift-testing wrote to its event stream during one test run.
///
/// `swift test --experimental-event-stream-output <path>
/// --experimental-event-stream-version 0` makes the testing library write one
/// JSON record per line as the run goes: first a `test` record for every test
/// function and suite, then `event` records (`runStarted`, `testStarted`,
/// `issueRecorded`, `testEnded`, `runEnded`, …). The schema is swift-testing's
/// Documentation/ABI/JSON.md, version 0, which every Swift 6 toolchain writes.
/// SwiftPM 6.0 knows only the `--experimental-` spelling of the two options;
/// later versions accept it too.
///
/// Records are read independently; a line that does not decode (the last one of
/// a run that was killed mid-write) or has an unknown kind is skipped, as the
/// schema asks.
///
/// A stream may hold several runs one after the other: Swift Build makes one
/// test runner per test target, and SwiftPM 6.4 writes their streams into the
/// one file in turn (6.3 lets each runner overwrite the last; `course` then
/// runs the runner it needs itself). The runs are read as one: every test of
/// each, and the whole ended only when every run that started ended.
struct TestEventStream {
  /// One test function, in the order the stream declared it.
  struct Function: Equatable {
    var id: String
    var name: String
  }

  /// Every test function of the run (a parameterized function is one).
  private(set) var functions: [Function] = []
  /// Test ids with a failing issue, in the order of their first one.
  private(set) var failedIDs: [String] = []
  /// Ids of test functions the run skipped (a `.enabled(if:)` trait said no), in order.
  private(set) var skippedIDs: [String] = []
  /// Ids of test functions that started and did not end, in the order they started.
  private(set) var runningIDs: [String] = []
  /// Ids of test functions that started, in the order they started.
  private(set) var startedIDs: [String] = []
  /// Whether the run reached its end, every run of it when it holds several; a
  /// run without its `runEnded` means its process died or was stopped.
  var runEnded: Bool { runsEnded > 0 && runsEnded >= runsStarted }
  /// How many runs started (`runStarted`) and how many ended (`runEnded`).
  private var runsStarted = 0
  private var runsEnded = 0
  /// The ids of `functions`, to find one fast.
  private var functionIDs: Set<String> = []
  /// What each failing issue said, in the order recorded: the test's id and the issue's messages.
  private(set) var failures: [(testID: String, messages: [String])] = []
  /// What each skip said (its comment, in the runner's words), by test id, in order.
  private(set) var skips: [(testID: String, messages: [String])] = []
  private var names: [String: String] = [:]
  private var files: [String: String] = [:]

  /// Reads the stream's JSON Lines.
  init(jsonLines: String) {
    let decoder = JSONDecoder()
    // Split the bytes, not the characters: a stream can run to megabytes.
    for line in Data(jsonLines.utf8).split(separator: UInt8(ascii: "\n")) {
      guard let record = try? decoder.decode(Record.self, from: line) else { continue }
      read(record)
    }
  }

  /// Ids of test functions that neither started nor were skipped, as when the run was stopped or crashed first.
  var unstartedIDs: [String] {
    functions.map(\.id).filter { !startedIDs.contains($0) && !skippedIDs.contains($0) }
  }

  /// The function's name for an id, or the id itself for a suite or an unknown id.
  func name(of id: String) -> String { names[id] ?? id }

  /// The name of the file that declares the test, such as `LoadingStateTests.swift`; empty when unknown.
  func file(of id: String) -> String { files[id] ?? "" }

  /// Counts every test that started and never ended, or never started, as failed:
  /// the run crashed or was stopped, and for a fault check that is the fault caught.
  mutating func markUnfinishedAsFailed() {
    for id in runningIDs + unstartedIDs where !failedIDs.contains(id) {
      failedIDs.append(id)
      failures.append((id, ["the test run crashed or was stopped before this test ended"]))
    }
  }

  private mutating func read(_ record: Record) {
    let payload = record.payload
    switch (record.kind, payload.kind) {
    case ("test", "function"):
      guard let id = payload.id, let name = payload.name, !functionIDs.contains(id) else { return }
      functionIDs.insert(id)
      functions.append(Function(id: id, name: name))
      names[id] = name
      if let fileID = payload.sourceLocation?.fileID {
        files[id] = String(fileID.split(separator: "/").last ?? "")
      }
    case ("test", _):
      if let id = payload.id, let name = payload.name { names[id] = name }
    case ("event", "testStarted"):
      if let id = payload.testID, functionIDs.contains(id) {
        runningIDs.append(id)
        if !startedIDs.contains(id) { startedIDs.append(id) }
      }
    case ("event", "testEnded"):
      runningIDs.removeAll { $0 == payload.testID }
    case ("event", "testSkipped"):
      if let id = payload.testID, functionIDs.contains(id), !skippedIDs.contains(id) {
        skippedIDs.append(id)
        skips.append((id, payload.texts))
      }
    case ("event", "issueRecorded"):
      guard let issue = payload.issue, issue.isFailure ?? !issue.isKnown else { return }
      let id = payload.testID ?? "the test run"
      if !failedIDs.contains(id) { failedIDs.append(id) }
      failures.append((id, payload.texts))
    case ("event", "runStarted"):
      runsStarted += 1
    case ("event", "runEnded"):
      runsEnded += 1
    default:
      break
    }
  }

  private struct Record: Decodable {
    var kind: String
    var payload: Payload
  }

  private struct Payload: Decodable {
    var kind: String
    /// Test records: the test's id and unqualified name.
    var id: String?
    var name: String?
    /// Event records: the test the event belongs to.
    var testID: String?
    /// Test records: where the test is declared.
    var sourceLocation: SourceLocation?
    var issue: Issue?
    /// Event records: what the event says in words; for an issue, the expectation
    /// that failed, then its comments, each a message of its own.
    var messages: [Message]?
    /// Event records of an issue or a skip: its comments, without the runner's wording.
    /// Underscored (not yet stable) in schema 0, so only a better source than `messages`.
    var _comments: [String]?

    /// The messages, then every comment that no message repeats.
    var texts: [String] {
      let texts = (messages ?? []).map(\.text)
      return texts + (_comments ?? []).filter { !texts.contains($0) }
    }
  }

  private struct SourceLocation: Decodable {
    /// `Module/File.swift`.
    var fileID: String?
  }

  private struct Message: Decodable {
    var text: String
  }

  private struct Issue: Decodable {
    var isKnown: Bool
    /// Written from schema 6.3 on; a warning is not a failure.
    var isFailure: Bool?
  }
}
