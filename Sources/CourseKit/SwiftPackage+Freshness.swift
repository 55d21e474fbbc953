import Foundation

/// Whether the built package is as new as its sources, so `course` can skip a build that would do nothing.
///
/// `swift build` takes seconds to find out that nothing changed; comparing
/// modification dates takes milliseconds. After each successful build,
/// `course` stamps `.build/course/build.stamp` with the time the build
/// started; the build is current while no file or folder under Package.swift,
/// Sources/, Lessons/, Solutions/ and Tests/ is newer than the stamp (a folder
/// changes when a file in it is added or removed).
extension SwiftPackage {
  /// The stamp, relative to the package root.
  static let buildStamp = ".build/course/build.stamp"
  /// What the build reads.
  static let sourceRoots = ["Package.swift", "Sources", "Lessons", "Solutions", "Tests"]

  /// True when the tests have been built since the last change to any source.
  public var isBuildCurrent: Bool {
    guard hasBeenBuilt,
      let stamp = Self.modificationDate(of: workspace.url(Self.buildStamp))
    else { return false }
    return newestSourceChange().map { $0 < stamp } ?? false
  }

  /// Records a successful build that started at `start`.
  func recordBuild(startedAt start: Date) {
    let url = workspace.url(Self.buildStamp)
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? Data().write(to: url)) != nil else { return }
    try? FileManager.default.setAttributes([.modificationDate: start], ofItemAtPath: url.path)
  }

  /// The latest modification date of any source file or folder.
  func newestSourceChange() -> Date? {
    var newest: Date?
    func see(_ url: URL) {
      guard let date = Self.modificationDate(of: url) else { return }
      newest = max(newest ?? date, date)
    }
    for root in Self.sourceRoots {
      let url = workspace.url(root)
      see(url)
      guard
        let files = FileManager.default.enumerator(
          at: url, includingPropertiesForKeys: [.contentModificationDateKey], options: [.skipsHiddenFiles])
      else { continue }
      for case let file as URL in files { see(file) }
    }
    return newest
  }

  private static func modificationDate(of url: URL) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
  }
}
