import CourseSQLite
import Testing

/// The `SQLiteError` that `body` throws, for expectations on its code and message.
///
/// `#require(throws:)` returns the error only from Swift 6.1 on; the course
/// supports Swift 6.0. Any other error propagates, so the test records it.
func thrownSQLiteError<Value>(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ body: () throws -> Value
) throws -> SQLiteError {
  let value: Value
  do {
    value = try body()
  } catch let error as SQLiteError {
    return error
  }
  return try #require(nil as SQLiteError?, "expected a SQLiteError, got \(value)", sourceLocation: sourceLocation)
}
