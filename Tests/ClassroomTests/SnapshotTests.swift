import Foundation
import Testing

@testable import Classroom

/// The one way from bytes off the network to a snapshot: everything else is refused, naming the field.
struct SnapshotTests {
  static let valid = """
    {"event":"check","stage":"04","task":3,"secondsOnTask":420,"passing":[1,2],"failing":[3,4],
     "solved":["01","02","03"],"hints":2,"faultsCaught":3,"faultsTotal":5,"doctor":"passed"}
    """

  @Test func readsEveryFieldOfAValidSnapshot() throws {
    let snapshot = try Snapshot.decode(Data(Self.valid.utf8))
    #expect(
      snapshot
        == Snapshot(
          event: .check, stage: "04", task: 3, secondsOnTask: 420, passing: [1, 2], failing: [3, 4],
          solved: ["01", "02", "03"], hints: 2, faultsCaught: 3, faultsTotal: 5, doctor: .passed),
      "every field read as sent")
    #expect(try Snapshot.decode(snapshot.encoded()) == snapshot, "what the client encodes, the room reads back")
  }

  @Test(arguments: [
    (#"{"path":"/Users/ann/course"}"#, "path is not a field"),
    ("[1,2]", "not a JSON object"),
    ("not json", "not a JSON object"),
    (#"{"event":"check"}"#, "missing"),
    (
      #"{"event":"rm -rf","stage":null,"secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "event is one of"
    ),
    (
      #"{"event":"check","stage":"4","secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "stage is"
    ),
    (
      #"{"event":"check","stage":"04","task":true,"secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "task is"
    ),
    (
      #"{"event":"check","stage":"04","task":1.5,"secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "task is"
    ),
    (
      #"{"event":"check","stage":"04","secondsOnTask":-1,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "secondsOnTask is"
    ),
    (
      #"{"event":"check","stage":"04","secondsOnTask":0,"passing":[0],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "passing is"
    ),
    (
      #"{"event":"check","stage":"04","secondsOnTask":0,"passing":[],"failing":[],"solved":["x"],"hints":0,"doctor":"passed"}"#,
      "solved is"
    ),
    (
      #"{"event":"check","stage":null,"task":2,"secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"doctor":"passed"}"#,
      "task needs a stage"
    ),
    (
      #"{"event":"check","stage":"04","secondsOnTask":0,"passing":[],"failing":[],"solved":[],"hints":0,"faultsCaught":4,"faultsTotal":3,"doctor":"passed"}"#,
      "faultsCaught"
    ),
  ])
  func refusesABodyThatBreaksARuleAndNamesTheField(body: String, expected: String) {
    #expect {
      try Snapshot.decode(Data(body.utf8))
    } throws: { error in
      guard case .malformed(let reason) = error as? ClassroomError else { return false }
      return reason.contains(expected)
    }
  }

  @Test func refusesABodyLargerThanTheLimit() {
    let padding = String(repeating: " ", count: Snapshot.maxBytes)
    #expect(throws: ClassroomError.tooLarge(limit: Snapshot.maxBytes), "a snapshot past \(Snapshot.maxBytes) bytes") {
      try Snapshot.decode(Data((Self.valid + padding).utf8))
    }
  }

  @Test func noInputCrashesIt() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let bytes = (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
        UInt8.random(in: 0...255, using: &generator)
      }
      _ = try? Snapshot.decode(Data(bytes))
    }
    // Mutations of a valid body: each either decodes to a valid snapshot or is refused.
    let valid = Array(Self.valid.utf8)
    for index in valid.indices {
      var mutated = valid
      mutated[index] = UInt8.random(in: 32...126, using: &generator)
      if let snapshot = try? Snapshot.decode(Data(mutated)) {
        #expect(snapshot.stage.map(Snapshot.isStageNumber) ?? true, "a decoded snapshot keeps the rules")
      }
    }
  }
}
