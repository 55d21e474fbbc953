import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Writes a test's fixture file without `Data.write`'s fsync.
///
/// On Linux, `Data.write(to:)` syncs every file it writes to disk. The
/// fixtures here live for one test and need no durability, and with hundreds
/// of them an fsync each was much of this suite's time, most of it in the kernel.
func writeFixture(_ text: String, to url: URL) throws {
  try writeFixture(Data(text.utf8), to: url)
}

/// Writes `data` to `url` as a test fixture, replacing what is there, without an fsync.
func writeFixture(_ data: Data, to url: URL) throws {
  func failure() -> POSIXError { POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
  guard let file = fopen(url.path, "wb") else { throw failure() }
  let written = data.withUnsafeBytes { bytes in bytes.isEmpty ? 0 : fwrite(bytes.baseAddress, 1, bytes.count, file) }
  // fclose flushes the buffer: a write that fails may only fail here.
  let closed = fclose(file) == 0
  guard written == data.count, closed else { throw failure() }
}
