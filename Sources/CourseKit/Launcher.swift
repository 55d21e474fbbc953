import Foundation

/// What `./course`, the launcher at the package root, needs from course: the built executable's path.
///
/// The launcher starts that executable directly while no source course is
/// built from is newer than the file that names it, and otherwise runs
/// `swift run course` with `COURSE_LAUNCHER=1` after touching
/// `.build/course/launcher.start`. Started that way, course is as new as its
/// sources were when that build began, so it names itself in
/// `.build/course/launcher.tool` dated to that moment: a source saved during
/// the build is newer, and the next launch builds again.
public enum Launcher {
  /// The variable the launcher sets when SwiftPM has just built course.
  public static let variable = "COURSE_LAUNCHER"
  /// The file that names the executable, relative to the package root.
  public static let toolFile = ".build/course/launcher.tool"
  /// The file the launcher touches before `swift run course`, relative to the package root.
  public static let startFile = ".build/course/launcher.start"

  /// Names `executable` in the package's `toolFile`, dated to the launcher's start, when the launcher asked for it.
  ///
  /// `course` calls this first, whatever the command, `help` included; the
  /// launcher ran `swift run` in the package root, so the package is found
  /// from the current directory.
  public static func record(executable: URL?, environment: [String: String]) {
    guard environment[variable] == "1" else { return }
    let directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    guard let workspace = try? Workspace.locate(currentDirectory: directory, environment: environment) else { return }
    record(executable: executable, workspace: workspace, environment: environment)
  }

  /// Names `executable` in `workspace`'s `toolFile`, dated to the launcher's start, when the launcher asked for it.
  ///
  /// Does nothing without `COURSE_LAUNCHER=1` or without the start file, and
  /// for an executable outside the package's `.build` (Xcode's DerivedData):
  /// the launcher then keeps running `swift run course`.
  public static func record(executable: URL?, workspace: Workspace, environment: [String: String]) {
    guard environment[variable] == "1", let executable else { return }
    // What course starts (builds, test runners) is not the launcher's business.
    unsetenv(variable)
    let manager = FileManager.default
    let tool = executable.resolvingSymlinksInPath().standardizedFileURL
    let build = workspace.root.resolvingSymlinksInPath().standardizedFileURL.appendingPathComponent(".build").path
    guard tool.path.hasPrefix(build + "/"),
      let start = (try? manager.attributesOfItem(atPath: workspace.url(startFile).path))?[.modificationDate] as? Date
    else { return }
    let file = workspace.url(toolFile)
    try? manager.removeItem(at: file)
    guard (try? Data(tool.path.utf8).write(to: file)) != nil else { return }
    try? manager.setAttributes([.modificationDate: start], ofItemAtPath: file.path)
  }
}
