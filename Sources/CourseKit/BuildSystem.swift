import Foundation

/// Which of SwiftPM's two build systems `course` builds and tests with.
///
/// SwiftPM builds with its native build system up to Swift 6.3 and with Swift
/// Build (`swiftbuild`) from Swift 6.4; Xcode builds packages with Swift Build
/// too. The two keep separate trees under `.build`, so `course` follows the
/// toolchain's default and then passes no `--build-system` option at all: its
/// builds and a learner's bare `swift test` are then one build. The
/// `--build-system` option of `course` and the `COURSE_BUILD_SYSTEM`
/// environment variable pick the other one.
///
/// The two differ in what they make of the test targets. The native build
/// system links every test target into one test binary. Swift Build makes one
/// test product per test target, on Linux a `NameTests-test-runner` executable
/// beside `NameTests.so`: a stage's suite can be built and run without linking
/// the rest of the course, and `swift test` starts one runner per test target.
public struct BuildSystem: Sendable, Equatable, CustomStringConvertible {
  /// The build systems `course` knows, by the names `--build-system` takes.
  public enum Kind: String, Sendable, CaseIterable {
    case native
    case swiftbuild
  }

  /// The build system to use.
  public var kind: Kind
  /// Whether `kind` is what the toolchain's SwiftPM uses when told nothing.
  public var isToolchainDefault: Bool

  /// Makes a choice of build system.
  public init(kind: Kind, isToolchainDefault: Bool) {
    self.kind = kind
    self.isToolchainDefault = isToolchainDefault
  }

  /// The options `course` adds to `swift build` and `swift test`: none when it follows the default.
  public var options: [String] { isToolchainDefault ? [] : ["--build-system", kind.rawValue] }

  /// Whether each test target is a test product of its own, which builds and runs apart from the others.
  public var buildsTestTargetsApart: Bool { kind == .swiftbuild }

  public var description: String {
    let name = kind == .native ? "the native build system" : "Swift Build"
    return "\(name) (`\(kind.rawValue)`\(isToolchainDefault ? ", the toolchain's default" : ""))"
  }

  /// The environment variable that picks the build system when `--build-system` does not.
  public static let variable = "COURSE_BUILD_SYSTEM"

  /// Reads a build system's name.
  ///
  /// - Throws: `CourseError.usage` for a name SwiftPM's `--build-system` would refuse or `course` cannot read.
  static func kind(named name: String, from source: String) throws -> Kind {
    guard let kind = Kind(rawValue: name.lowercased()) else {
      throw CourseError.usage(
        "\(source) names the build system \"\(name)\"; `course` builds with `native` or `swiftbuild`.")
    }
    return kind
  }

  /// Takes `--build-system NAME` (or `--build-system=NAME`) out of a command line.
  ///
  /// Every command accepts it; those that build or test use it.
  /// - Returns: The build system it names, if any, and the other arguments.
  /// - Throws: `CourseError.usage` for a missing or unknown name.
  static func option(in arguments: [String]) throws -> (kind: Kind?, rest: [String]) {
    var rest: [String] = []
    var kind: Kind?
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let word = arguments[index]
      if word == "--build-system" {
        guard index + 1 < arguments.endIndex else {
          throw CourseError.usage("--build-system needs a name: `native` or `swiftbuild`.")
        }
        kind = try Self.kind(named: arguments[index + 1], from: "--build-system")
        index += 2
        continue
      }
      if word.hasPrefix("--build-system=") {
        kind = try Self.kind(named: String(word.dropFirst("--build-system=".count)), from: "--build-system")
      } else {
        rest.append(word)
      }
      index += 1
    }
    return (kind, rest)
  }

  /// The build system for one run of `course`: the option's, else the
  /// environment variable's, else the one that built this `course`, else the toolchain's default.
  ///
  /// `swift run course` builds `course` in the tree of the build system it
  /// uses, the default or the one its own `--build-system` names; `course`
  /// then builds and tests in that tree too, so the learner's `swift test` and
  /// `swift run course` with the same options share one build.
  /// - Parameters:
  ///   - builtBy: The build system whose tree under the course's `.build` holds
  ///     this `course` (`builtCourse(executable:root:)`); `nil` elsewhere, as in Xcode's DerivedData.
  ///   - toolchainDefault: What the toolchain's SwiftPM uses when told nothing (`toolchainDefault(runner:…)`).
  /// - Throws: `CourseError.usage` when `COURSE_BUILD_SYSTEM` names an unknown build system.
  static func resolve(
    option: Kind?, environment: [String: String], builtBy: Kind? = nil, toolchainDefault: () -> Kind
  ) throws -> BuildSystem {
    var chosen = option
    if chosen == nil, let name = environment[variable], !name.isEmpty {
      chosen = try kind(named: name, from: variable)
    }
    chosen = chosen ?? builtBy
    let standard = toolchainDefault()
    return BuildSystem(kind: chosen ?? standard, isToolchainDefault: (chosen ?? standard) == standard)
  }

  /// The build system whose tree under `root/.build` holds `executable`, or `nil` when it lies outside.
  ///
  /// Swift Build puts products under `.build/out/`; the native build system
  /// under `.build/<triple>/<configuration>/` (and links `.build/debug` there).
  static func builtCourse(executable: URL, root: URL) -> Kind? {
    let path = executable.resolvingSymlinksInPath().standardizedFileURL.path
    let build = root.resolvingSymlinksInPath().standardizedFileURL.appendingPathComponent(".build").path + "/"
    guard path.hasPrefix(build) else { return nil }
    return path.dropFirst(build.count).hasPrefix("out/") ? .swiftbuild : .native
  }

  // MARK: Where the build puts the test products

  /// The folders, relative to the package root, that may hold the test products of a debug build.
  ///
  /// Native: `.build/debug`, a link to `.build/<triple>/debug`. Swift Build:
  /// `.build/out/Products/Debug-linux` on Linux, `Debug` on macOS.
  func productFolders(in root: URL) -> [URL] {
    switch kind {
    case .native:
      return [root.appendingPathComponent(".build/debug")]
    case .swiftbuild:
      let products = root.appendingPathComponent(".build/out/Products")
      let names = ((try? FileManager.default.contentsOfDirectory(atPath: products.path)) ?? [])
        .filter { $0 == "Debug" || $0.hasPrefix("Debug-") }.sorted()
      return names.map { products.appendingPathComponent($0) }
    }
  }

  /// The executable that runs one test module's tests by itself, when the build made one.
  ///
  /// Swift Build on Linux makes `NameTests-test-runner`; it takes swift-testing's
  /// options, as `swift test` passes them, and starts in a tenth of a second.
  /// The native build system links every test module into one
  /// `…PackageTests.xctest`, which runs one module with `--filter`. On macOS
  /// both make bundles that only `swift test` knows how to start: `nil`.
  func testRunner(of testModule: String, in root: URL) -> URL? {
    let manager = FileManager.default
    for folder in productFolders(in: root) {
      let candidates: [URL]
      switch kind {
      case .swiftbuild:
        candidates = [folder.appendingPathComponent("\(testModule)-test-runner")]
      case .native:
        candidates = ((try? manager.contentsOfDirectory(atPath: folder.path)) ?? [])
          .filter { $0.hasSuffix("PackageTests.xctest") }.map { folder.appendingPathComponent($0) }
      }
      for candidate in candidates {
        var isFolder: ObjCBool = false
        if manager.fileExists(atPath: candidate.path, isDirectory: &isFolder), !isFolder.boolValue,
          manager.isExecutableFile(atPath: candidate.path)
        {
          return candidate
        }
      }
    }
    return nil
  }

  /// Whether a build of the tests has finished here before: the first is the slow one.
  ///
  /// `swift run course` creates `.build` for the tool alone, so look for a test
  /// product: `…PackageTests.xctest` (native), or `…-test-runner` or
  /// `….xctest` (Swift Build on Linux, on macOS).
  func hasBuiltTests(in root: URL) -> Bool {
    productFolders(in: root).contains { folder in
      ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).contains { name in
        switch kind {
        case .native: name.hasSuffix("PackageTests.xctest")
        case .swiftbuild: name.hasSuffix("Tests-test-runner") || name.hasSuffix("Tests.xctest")
        }
      }
    }
  }
}
