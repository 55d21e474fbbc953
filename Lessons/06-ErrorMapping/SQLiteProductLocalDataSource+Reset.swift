import CourseSQLite
import Foundation

nonisolated extension SQLiteProductLocalDataSource {
  /// Opens the store at `path`; when the file there is not a readable SQLite
  /// database, moves it aside to `path + ".unreadable"` and starts empty.
  ///
  /// This suits a cache, whose contents can be fetched again. Never do it to
  /// data that exists only on the device: there, report the error and keep the file.
  /// - Throws: Any other error from opening, such as a locked file, and errors
  ///   from moving the file or from opening the new, empty one.
  static func openOrReset(path: String) throws -> SQLiteProductLocalDataSource {
    do {
      return try SQLiteProductLocalDataSource(path: path)
    } catch let error as SQLiteError where error.meansUnreadableFile {
      let aside = path + ".unreadable"
      SQLiteConnection.removeDatabase(atPath: aside)  // An older unreadable copy.
      // The write-ahead log beside the file belongs to it; a new database must not replay it.
      for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + suffix) {
        try FileManager.default.moveItem(atPath: path + suffix, toPath: aside + suffix)
      }
      return try SQLiteProductLocalDataSource(path: path)
    }
  }
}

nonisolated extension SQLiteError {
  /// Whether SQLite could not read the file as a database: not SQLite at all
  /// (`.notADatabase`) or damaged (`.corrupt`).
  fileprivate var meansUnreadableFile: Bool { code == .notADatabase || code == .corrupt }
}
