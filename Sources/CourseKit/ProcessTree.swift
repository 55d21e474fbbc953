import Foundation

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#endif

/// The processes below a process, as the system shows them right now.
///
/// `swift test` starts its test runner in a process group of its own, so
/// signalling the group `course` started does not reach the runner. Before it
/// stops a command, `ProcessCommandRunner` asks for the groups of every
/// descendant while they are still connected to the command (once the command
/// is gone, its orphans belong to init and cannot be told apart).
enum ProcessTree {
  /// The process groups of all descendants of `pid`.
  static func descendantGroups(of pid: pid_t) -> Set<pid_t> {
    let children = childrenNow()
    var groups: Set<pid_t> = []
    var pending = children(pid)
    var seen: Set<pid_t> = [pid]
    while let next = pending.popLast() {
      guard seen.insert(next).inserted else { continue }
      let group = getpgid(next)
      if group > 0 { groups.insert(group) }
      pending += children(next)
    }
    return groups
  }

  #if os(macOS)
    /// Lists a process's children with libproc, which only the macOS SDK has.
    private static func childrenNow() -> (pid_t) -> [pid_t] {
      { pid in
        var buffer = [pid_t](repeating: 0, count: 4_096)
        let bytes = Int32(buffer.count * MemoryLayout<pid_t>.size)
        // The result is a count on current systems and a byte count on old ones; the
        // zeroed buffer makes either safe to read.
        let filled = buffer.withUnsafeMutableBytes { proc_listchildpids(pid, $0.baseAddress, bytes) }
        guard filled > 0 else { return [] }
        return buffer.prefix(Int(filled)).filter { $0 > 0 }
      }
    }
  #elseif os(Linux)
    /// Reads the parent of every process from /proc/<pid>/stat once, and answers from that.
    private static func childrenNow() -> (pid_t) -> [pid_t] {
      var children: [pid_t: [pid_t]] = [:]
      for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
        guard let pid = pid_t(entry),
          let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
          let close = stat.lastIndex(of: ")")
        else { continue }
        // After "pid (command)": the state, then the parent's pid.
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        if fields.count > 1, let parent = pid_t(fields[1]) { children[parent, default: []].append(pid) }
      }
      return { children[$0] ?? [] }
    }
  #else
    /// iOS and the other Darwin platforms have neither libproc nor /proc, and
    /// `course` starts no process there (see `ProcessCommandRunner.canStartProcesses`):
    /// no descendants are known, so only a command's own group is signalled.
    private static func childrenNow() -> (pid_t) -> [pid_t] {
      { _ in [] }
    }
  #endif
}
