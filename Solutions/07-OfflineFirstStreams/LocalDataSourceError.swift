/// What can go wrong in the local store beyond SQLite's own errors.
nonisolated enum LocalDataSourceError: Error, Sendable, Equatable {
  /// A stored row holds a value that is not a valid product, such as a price that is not a number.
  case corruptRow(id: Int64, reason: String)
  /// A product the store refuses to save, such as one whose price is NaN: it could not be read back.
  case unsavable(id: Int, reason: String)
}
