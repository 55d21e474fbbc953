import Classroom
import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The learner's side of the classroom: `/join`, `/snapshot` and `/leave` over HTTP, each bounded in time.
///
/// A snapshot goes on a thread of its own, and the command waits for its answer
/// at most `patience`: on a room's network that is a few milliseconds, and an
/// instructor who cannot be reached costs the learner at most that. A snapshot
/// that did not arrive is not queued: the next command sends a newer one, which
/// says everything the lost one did.
struct ClassroomClient: Sendable {
  /// How long a command waits for a snapshot's answer.
  var patience: Duration = .seconds(1)

  /// What became of one request.
  enum Outcome: Equatable {
    /// Answered with this status and body.
    case answered(status: Int, body: Data)
    /// No answer within the time allowed: the classroom is down, unreachable or slow.
    case unreachable(String)
  }

  /// Posts `body` to `url`'s `path` with the classroom's headers, waiting at most `wait`.
  func post(_ path: String, to url: URL, headers: [String: String], body: Data, wait: Duration) -> Outcome {
    var request = URLRequest(url: url.appendingPathComponent(path))
    request.httpMethod = "POST"
    request.httpBody = body
    request.setValue("application/json", forHTTPHeaderField: "Content-Type")
    for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
    let seconds = Double(wait.components.seconds) + Double(wait.components.attoseconds) / 1e18
    request.timeoutInterval = seconds
    let configuration = URLSessionConfiguration.ephemeral
    configuration.timeoutIntervalForRequest = seconds
    configuration.timeoutIntervalForResource = seconds
    let session = URLSession(configuration: configuration)
    let answer = Mutex<Outcome?>(nil)
    let done = DispatchSemaphore(value: 0)
    let task = session.dataTask(with: request) { data, response, error in
      let outcome: Outcome =
        if let response = response as? HTTPURLResponse {
          .answered(status: response.statusCode, body: data ?? Data())
        } else {
          .unreachable(error?.localizedDescription ?? "no answer")
        }
      answer.withLock { $0 = outcome }
      done.signal()
    }
    task.resume()
    let arrived = done.wait(timeout: .now() + .milliseconds(Int(seconds * 1000) + 100)) == .success
    session.finishTasksAndInvalidate()
    if !arrived { task.cancel() }
    return answer.withLock { $0 } ?? .unreachable("no answer within \(Int(seconds * 1000)) ms")
  }

  /// What `/join` answered: the learner key, the name as the room keeps it, and
  /// whether this laptop took back the row it had.
  struct Joined: Equatable {
    var learner: String
    var name: String
    var rejoined: Bool
  }

  /// `POST /join` with this laptop's machine key, when it has one: the learner
  /// key, or the classroom's reason for refusing.
  func join(_ url: URL, code: String, name: String, machine: String?) -> Result<Joined, JoinFailure> {
    var fields = ["name": name]
    fields["machine"] = machine
    let body = (try? JSONEncoder().encode(fields)) ?? Data()
    switch post("join", to: url, headers: ["X-Join-Code": code], body: body, wait: .seconds(5)) {
    case .unreachable(let reason):
      return .failure(.unreachable(reason))
    case .answered(let status, let data):
      let fields = (try? JSONDecoder().decode([String: String].self, from: data)) ?? [:]
      guard status == 201 || status == 200, let learner = fields["learner"] else {
        return .failure(.refused(status: status, message: fields["message"] ?? "status \(status)"))
      }
      return .success(Joined(learner: learner, name: fields["name"] ?? name, rejoined: fields["rejoined"] == "yes"))
    }
  }

  enum JoinFailure: Error, Equatable {
    case unreachable(String)
    case refused(status: Int, message: String)
  }

  /// `POST /snapshot`, waiting at most `patience`.
  func send(_ snapshot: Snapshot, as membership: ClassroomMembership) -> Outcome {
    post(
      "snapshot", to: membership.url, headers: ["X-Join-Code": membership.code, "X-Learner": membership.learner],
      body: snapshot.encoded(), wait: patience)
  }

  /// `POST /leave`, waiting at most `patience`.
  func leave(_ membership: ClassroomMembership) -> Outcome {
    post(
      "leave", to: membership.url, headers: ["X-Join-Code": membership.code, "X-Learner": membership.learner],
      body: Data(), wait: patience)
  }
}
