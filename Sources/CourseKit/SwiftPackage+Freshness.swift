import Foundation

/// Whether the built package is as new as its sources, so `course` can skip a build that would do nothing.
///
/// `swift build` takes seconds to find out that nothing changed; comparing
/// modification dates takes milliseconds. After each successful build,
/// `course` stamps a file under `.build/course` with the time the build
/// started, one per build system (their trees are apart) and, under Swift
/// Build, one per test product it built alone; the build is current while no
/// file or folder under Package.swift, Sources/, Lessons/, Solutions/ and
/// Tests/ is newer than the stamp (a folder changes when a file in it is added
/// or removed).
extension SwiftPackage {
  /// What the build reads.
  static let sourceRoots = ["Package.swift", "Sources", "Lessons", "Solutions", "Tests"]

  /// The stamp of a build of everything, or of one test product, relative to the package root.
  func buildStamp(testProduct: String? = nil) -> String {
    ".build/course/\(buildSystem.kind.rawValue)\(testProduct.map { "-\($0)" } ?? "").build.stamp"
  }

  /// True when the tests have been built since the last change to any source.
  public var isBuildCurrent: Bool { isBuildCurrent(testProduct: nil) }

  /// True when everything, or else `testProduct`, has been built since the last change to any source.
  ///
  /// - Parameter forLessonSuite: Judge only what a stage's lesson suite is
  ///   built from: the learner's own tests (`YourTests` folders) are compiled
  ///   into their own test targets, which no lesson suite needs, and the fault
  ///   check builds them apart. So an edit to them alone leaves `course check`
  ///   nothing to build in the course.
  func isBuildCurrent(testProduct: String?, forLessonSuite: Bool = false) -> Bool {
    guard hasBeenBuilt else { return false }
    let stamps = [buildStamp()] + (testProduct.map { [buildStamp(testProduct: $0)] } ?? [])
    guard let stamp = stamps.compactMap({ Self.modificationDate(of: workspace.url($0)) }).max() else { return false }
    return newestSourceChange(skippingYourTests: forLessonSuite).map { $0 < stamp } ?? false
  }

  /// Records a successful build, of everything or of `testProduct`, that started at `start`.
  func recordBuild(startedAt start: Date, testProduct: String? = nil) {
    let url = workspace.url(buildStamp(testProduct: testProduct))
    try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    guard (try? Data().write(to: url)) != nil else { return }
    try? FileManager.default.setAttributes([.modificationDate: start], ofItemAtPath: url.path)
  }

  /// The latest modification date of any source file or folder, or of those outside `YourTests` folders.
  func newestSourceChange(skippingYourTests: Bool = false) -> Date? {
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
      for case let file as URL in files {
        if skippingYourTests, file.lastPathComponent == FaultCheck.testsFolder {
          files.skipDescendants()
          continue
        }
        see(file)
      }
    }
    return newest
  }

  private static func modificationDate(of url: URL) -> Date? {
    (try? FileManager.default.attributesOfItem(atPath: url.path))?[.modificationDate] as? Date
  }
}
