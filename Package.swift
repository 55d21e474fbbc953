// swift-tools-version: 6.2
import PackageDescription

#if os(Linux)
  import Glibc
#endif

// MARK: - The stages

/// One numbered stage of the course.
///
/// Each stage becomes four targets: `LessonNN` (Lessons/NN-Name), `SolutionNN`
/// (Solutions/NN-Name), and `LessonNNTests` and `SolutionNNTests`, which compile
/// the same test files from Tests/NN-Name. The solution's test target reads them
/// through the symbolic link Tests/SolutionLinks/NN-Name, and the `SOLUTION`
/// condition picks the module the tests import.
struct Stage {
  let number: String
  let name: String
  /// Infrastructure modules the lesson and solution code may import.
  var uses: [Target.Dependency] = []
  /// Whether the stage has "Write the test" tasks: the learner's tests in
  /// Lessons/NN-Name/YourTests (target `LessonNNYourTests`) and the reference
  /// answers in Solutions/NN-Name/YourTests (`SolutionNNYourTests`).
  var writesTests = false

  var folder: String { "\(number)-\(name)" }
}

/// Adding a stage is one entry here plus its four folders and the link.
let stages: [Stage] = [
  Stage(number: "01", name: "ViewCallsURLSession"),
  Stage(number: "02", name: "DataSources", writesTests: true),
  Stage(number: "03", name: "DependencyInjection", writesTests: true),
  Stage(number: "04", name: "LocalPersistence", uses: ["CourseSQLite"], writesTests: true),
  Stage(number: "05", name: "CachingRepository", uses: ["CourseSQLite"], writesTests: true),
  Stage(number: "06", name: "ErrorMapping", uses: ["CourseSQLite"], writesTests: true),
  Stage(number: "07", name: "OfflineFirstStreams", uses: ["CourseSQLite"], writesTests: true),
  // The capstone: its lesson starts from an empty folder, not from Solution 07.
  Stage(number: "08", name: "Capstone", uses: ["CourseSQLite"], writesTests: true),
]

// MARK: - Infrastructure

/// SQLite comes with the SDK on Apple platforms (`import SQLite3`); elsewhere a
/// system-library target links the system's libsqlite3.
#if canImport(Darwin)
  let sqliteTargets: [Target] = []
  let sqliteDependencies: [Target.Dependency] = []
#else
  let sqliteTargets: [Target] = [
    .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", providers: [.apt(["libsqlite3-dev"])])
  ]
  let sqliteDependencies: [Target.Dependency] = ["CSQLite"]
#endif

let testSupport: [Target.Dependency] = ["CourseFixtures", "CourseClock", "FakeCatalog", "StageTesting"]

let package = Package(
  name: "RepositoryCourse",
  platforms: [.macOS(.v15), .iOS(.v18)],
  products: [
    .executable(name: "course", targets: ["course"]),
    // The fault check (`course check`, Sources/CourseKit/FaultCheck.swift) builds a
    // scratch package under .build that uses these.
    .library(
      name: "CourseStageSupport",
      targets: ["CourseFixtures", "CourseClock", "FakeCatalog", "LessonSupport", "StageTesting", "CourseSQLite"]),
  ],
  targets: [
    .target(
      name: "CourseFixtures",
      resources: [
        .copy("Resources/products.json"), .copy("Resources/LICENSE-dummyjson.txt"), .copy("Resources/articles.json"),
      ]
    ),
    .target(name: "CourseClock"),
    .target(name: "FakeCatalog", dependencies: ["CourseFixtures", "CourseClock"]),
    .target(name: "LessonSupport"),
    .target(name: "StageTesting", dependencies: ["LessonSupport", "CourseClock", "CourseSQLite"]),
    .target(name: "CourseSQLite", dependencies: sqliteDependencies),
    .target(name: "CatalogServer", dependencies: ["FakeCatalog", "CourseFixtures"]),
    // `course demo`: the finished app of the last stage against an embedded `course serve`.
    .target(
      name: "CourseDemo",
      dependencies: ["Solution07", "CatalogServer", "FakeCatalog", "CourseFixtures", "CourseSQLite"]),
    // `course classroom`: the instructor's live view, on CatalogServer's sockets, kept in SQLite.
    .target(name: "Classroom", dependencies: ["CatalogServer", "FakeCatalog", "CourseSQLite"]),
    // CourseClock gives `course` the tests' safety limit, which its suite time limit leaves room for.
    .target(name: "CourseKit", dependencies: ["CatalogServer", "CourseDemo", "Classroom", "CourseClock"]),
    .executableTarget(name: "course", dependencies: ["CourseKit"]),
    .testTarget(name: "CourseFixturesTests", dependencies: ["CourseFixtures"]),
    .testTarget(name: "CourseClockTests", dependencies: ["CourseClock"]),
    .testTarget(name: "FakeCatalogTests", dependencies: testSupport),
    .testTarget(name: "CourseKitTests", dependencies: ["CourseKit", "CourseDemo"]),
    .testTarget(name: "CatalogServerTests", dependencies: ["CatalogServer"] + testSupport),
    .testTarget(name: "ClassroomTests", dependencies: ["Classroom", "CatalogServer", "FakeCatalog"]),
    .testTarget(
      name: "CourseDemoTests", dependencies: ["CourseDemo", "CatalogServer", "FakeCatalog", "CourseFixtures"]),
    .testTarget(name: "CourseSQLiteTests", dependencies: ["CourseSQLite"] + sqliteDependencies),
  ] + sqliteTargets
)

// MARK: - Stage targets, generated

for stage in stages {
  let lesson = "Lesson\(stage.number)"
  let solution = "Solution\(stage.number)"
  let yourTests = stage.writesTests ? ["YourTests"] : []
  package.targets += [
    .target(
      name: lesson,
      dependencies: stage.uses + ["LessonSupport"],
      path: "Lessons/\(stage.folder)",
      exclude: yourTests
    ),
    .target(name: solution, dependencies: stage.uses, path: "Solutions/\(stage.folder)", exclude: yourTests),
    .testTarget(
      name: "\(lesson)Tests",
      dependencies: [.target(name: lesson)] + stage.uses + testSupport,
      path: "Tests/\(stage.folder)"
    ),
    .testTarget(
      name: "\(solution)Tests",
      dependencies: [.target(name: solution)] + stage.uses + testSupport,
      path: "Tests/SolutionLinks/\(stage.folder)",
      swiftSettings: [.define("SOLUTION")]
    ),
  ]
  if stage.writesTests {
    package.targets += [lesson, solution].map { module in
      .testTarget(
        name: "\(module)YourTests",
        dependencies: [.target(name: module)] + stage.uses + testSupport,
        path: "\(module.hasPrefix("Lesson") ? "Lessons" : "Solutions")/\(stage.folder)/YourTests"
      )
    }
  }
}

// MARK: - Second designs

/// A second design of a stage, in Alternatives/NN-Name, that passes the stage's
/// suite as well: the capstone's doc compares it with the reference. Its test
/// target reads the suite through Tests/AlternativeLinks/NN-Name, and the
/// `ALTERNATIVE` condition picks the module the tests import.
for stage in stages where stage.number == "08" {
  package.targets += [
    .target(name: "Alternative\(stage.number)", dependencies: stage.uses, path: "Alternatives/\(stage.folder)"),
    .testTarget(
      name: "Alternative\(stage.number)Tests",
      dependencies: [.target(name: "Alternative\(stage.number)")] + stage.uses + testSupport,
      path: "Tests/AlternativeLinks/\(stage.folder)",
      swiftSettings: [.define("SOLUTION"), .define("ALTERNATIVE")]
    ),
  ]
}

// MARK: - Integration tests over real sockets

/// The reference solution that Tests/IntegrationTests runs against `course serve`
/// on loopback. To move them to a later stage, change this and
/// Tests/IntegrationTests/LatestSolution.swift, the one file that names it.
let integrationStage = "07"
if let stage = stages.first(where: { $0.number == integrationStage }) {
  package.targets.append(
    .testTarget(
      name: "IntegrationTests",
      dependencies: [.target(name: "Solution\(stage.number)"), "CatalogServer"] + stage.uses + testSupport
        // The capstone's two designs, against the same server (CapstoneOverSocketTests.swift).
        + ["Solution08", "Alternative08"])
  )
}

// MARK: - Benchmarks, only on request

// `COURSE_BENCHMARKS=1 swift run -c release benchmarks` times the reference
// solutions (Sources/Benchmarks/main.swift). Without the variable the target does
// not exist, so a learner's `swift build --build-tests` never compiles it.
if Context.environment["COURSE_BENCHMARKS"] == "1" {
  let timed = ["Solution04", "Solution05", "Solution07"]
  package.targets.append(
    .executableTarget(
      name: "benchmarks",
      // The classroom benchmark drives `course classroom` through CatalogServer's own loopback socket.
      dependencies: timed.map { .target(name: $0) } + ["CourseFixtures", "CourseSQLite", "Classroom", "CatalogServer"],
      path: "Sources/Benchmarks")
  )
  // The benchmarks reach internal types with `@testable import`, which a release
  // build allows only from modules compiled for testing.
  for target in package.targets where (timed + ["CatalogServer"]).contains(target.name) {
    target.swiftSettings =
      (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"], .when(configuration: .release))]
  }
}

// MARK: - The demo reaches into the last solution

// Sources/CourseDemo uses Solution07's internal types with `@testable import`,
// which debug builds allow; this lets a release build of `course` compile too.
for target in package.targets where target.name == "Solution07" {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [.unsafeFlags(["-enable-testing"], .when(configuration: .release))]
}

// MARK: - A faster link on Linux

// Every `swift test` relinks the one test binary that holds all stages, a large
// part of the wait after a one-line edit: the link step takes about 1.6 s with
// gold and 0.85 s with LLVM's lld (8 stages, 2 cores; Docs/Benchmarks.md). Swift
// toolchains for Linux ship `ld.lld` beside `swift`; where it is missing, the
// default linker is used.
//
// Swift Build (`--build-system swiftbuild`, SwiftPM's default from 6.4) links
// with `--gc-sections` even in debug builds, and lld, unlike gold, then also
// drops sections that are reached only through `__start_`/`__stop_` symbols
// (its `-z start-stop-gc` default), which is how the Swift runtime finds its
// metadata: the test binaries crashed with "Bad pointer dereference".
// `-z nostart-stop-gc` keeps gold's behaviour, for release builds too.
#if os(Linux)
  let toolchainHasLLD = (Context.environment["PATH"] ?? "").split(separator: ":").contains { folder in
    access("\(folder)/swift", X_OK) == 0 && access("\(folder)/ld.lld", X_OK) == 0
  }
#else
  let toolchainHasLLD = false
#endif

// MARK: - Today's app defaults for the stage targets

/// The targets a learner writes or copies into an app: every Lesson, Solution and
/// Alternative module. They build as a new Xcode 26 app target does: every
/// unannotated declaration is main-actor (SE-0466, "Default Actor Isolation =
/// MainActor"), and a nonisolated async function runs on its caller's actor unless
/// it is `@concurrent` (SE-0461, part of "Approachable Concurrency"). The tests
/// and the infrastructure keep a package's defaults.
///
/// `COURSE_ISOLATION=package` builds the stage targets with a package's defaults
/// instead (nonisolated, and async functions that leave their caller's actor), as
/// a data layer moved into a module of its own builds: `.ci/run` checks every
/// reference both ways. Docs/Setup.md, "Today's Xcode".
let stageModulePrefixes = ["Lesson", "Solution", "Alternative"]
let packageIsolation = Context.environment["COURSE_ISOLATION"] == "package"
for target in package.targets
where target.type == .regular && stageModulePrefixes.contains(where: { target.name.hasPrefix($0) }) {
  if !packageIsolation {
    target.swiftSettings =
      (target.swiftSettings ?? []) + [
        .defaultIsolation(MainActor.self),
        .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
      ]
  }
}

// MARK: - Settings for every target (keep this after all target declarations)

for target in package.targets where target.type != .system {
  target.swiftSettings =
    (target.swiftSettings ?? []) + [
      .swiftLanguageMode(.v6),
      .enableUpcomingFeature("ExistentialAny"),
      .enableUpcomingFeature("MemberImportVisibility"),
      .enableUpcomingFeature("InferIsolatedConformances"),
    ]
  if toolchainHasLLD {
    target.linkerSettings =
      (target.linkerSettings ?? []) + [
        .unsafeFlags(["-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "nostart-stop-gc"])
      ]
  }
}
