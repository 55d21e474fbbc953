import StageTesting

let guide = StageGuide(
  doc: "Docs/02-DataSources.md",
  tasks: [
    1: "Decode the real dates",
    2: "Map the DTO to the domain",
    3: "Build requests from an Endpoint",
    4: "Fetch through the remote data source",
    5: "Keep products in the in-memory local source",
    6: "Point the view model at the protocol",
  ]
)

extension Result {
  /// The error of a failed result, for expectations on what was thrown.
  var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Result where Failure == any Error {
  /// Runs an async throwing operation and keeps its outcome, so an expectation
  /// can show exactly what came back, a "not done yet" error included.
  init(catching operation: () async throws -> Success) async {
    do {
      self = .success(try await operation())
    } catch {
      self = .failure(error)
    }
  }
}
