import Foundation

/// What `./course`, the launcher at the package root, needs from course: the built executable's path.
///
/// The launcher starts that executable directly while no source course is
/// built from is newer than the file that names it and the same toolchain is
/// in force, and otherwise runs `swift run course` with `COURSE_LAUNCHER=1`
/// after touching `.build/course/launcher.start`. Started that way, course is
/// as new as its sources were when that build began, so it names itself and
/// the toolchain in `.build/course/launcher.tool` dated to that moment: a
/// source saved during the build is newer, and the next launch builds again.
public enum Launcher {
  /// The variable the launcher sets when SwiftPM has just built course.
  public static let variable = "COURSE_LAUNCHER"
  /// The variable that says which toolchain the launcher saw: its `swift`, `DEVELOPER_DIR` and `TOOLCHAINS`.
  public static let toolchainVariable = "COURSE_LAUNCHER_TOOLCHAIN"
  /// The variable the launcher sets to the path it was started by (`./course`, `../../course`).
  public static let commandVariable = "COURSE_COMMAND"
  /// How course is started without the launcher.
  public static let swiftRun = "swift run course"
  /// The file that names the executable and the toolchain, relative to the package root.
  public static let toolFile = ".build/course/launcher.tool"
  /// The file the launcher touches before `swift run course`, relative to the package root.
  public static let startFile = ".build/course/launcher.start"

  /// How the learner started course: the launcher's path as they typed it, or `swift run course`.
  ///
  /// Only a path that names the launcher (`course`, `./course`, `../course`)
  /// counts, so the commands course suggests are ones the learner can paste back.
  public static func invocation(environment: [String: String]) -> String {
    guard let path = environment[commandVariable], path == "course" || path.hasSuffix("/course"),
      path.unicodeScalars.allSatisfy({ CharacterSet.alphanumerics.contains($0) || "./-_".unicodeScalars.contains($0) })
    else { return swiftRun }
    return path.contains("/") ? path : "./" + path
  }

  /// Names `executable` in its package's `toolFile`, dated to the launcher's start, when the launcher asked for it.
  ///
  /// `course` calls this first, whatever the command, `help` included, and it
  /// takes the launcher's variables out of course's environment, so that what
  /// course starts (builds, test runners) does not inherit them. The
  /// package is the one the executable was built in (`<root>/.build/…`), not
  /// the current directory: the launcher keeps the learner's folder.
  public static func record(executable: URL?, environment: [String: String]) {
    guard environment[variable] == "1" else { return }
    // What course starts (builds, test runners) is not the launcher's business.
    for name in [variable, toolchainVariable, commandVariable] where getenv(name) != nil { unsetenv(name) }
    guard let executable,
      let workspace = try? Workspace.find(from: executable.resolvingSymlinksInPath().deletingLastPathComponent())
    else { return }
    record(executable: executable, workspace: workspace, environment: environment)
  }

  /// Names `executable` in `workspace`'s `toolFile`, dated to the launcher's start, when the launcher asked for it.
  ///
  /// Does nothing without `COURSE_LAUNCHER=1` or without the start file, and
  /// for an executable outside the package's `.build` (Xcode's DerivedData):
  /// the launcher then keeps running `swift run course`. The record is written
  /// whole or not at all: a launcher never reads half of one, nor one dated now.
  public static func record(executable: URL?, workspace: Workspace, environment: [String: String]) {
    guard environment[variable] == "1", let executable else { return }
    let manager = FileManager.default
    let tool = executable.resolvingSymlinksInPath().standardizedFileURL
    let build = workspace.root.resolvingSymlinksInPath().standardizedFileURL.appendingPathComponent(".build").path
    guard tool.path.hasPrefix(build + "/"),
      let start = (try? manager.attributesOfItem(atPath: workspace.url(startFile).path))?[.modificationDate] as? Date
    else { return }
    let file = workspace.url(toolFile)
    let draft = file.deletingLastPathComponent().appendingPathComponent("launcher.tool.\(UUID().uuidString)")
    let text = tool.path + "\n" + (environment[toolchainVariable] ?? "") + "\n"
    do {
      try Data(text.utf8).write(to: draft)
      try manager.setAttributes([.modificationDate: start], ofItemAtPath: draft.path)
      if rename(draft.path, file.path) != 0 { throw CocoaError(.fileWriteUnknown) }
    } catch {
      try? manager.removeItem(at: draft)
      try? manager.removeItem(at: file)
    }
  }
}
