extension Result {
  /// The error of a failed result, for expectations on what was thrown.
  public var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
  }
}

extension Result where Failure == any Error {
  /// Runs an async throwing operation and keeps its outcome, so an expectation
  /// can show exactly what came back, a "not done yet" error included.
  public init(
    isolation: isolated (any Actor)? = #isolation,
    catching operation: () async throws -> Success
  ) async {
    do {
      self = .success(try await operation())
    } catch {
      self = .failure(error)
    }
  }
}
