import CourseKit
import Foundation
import Testing

/// `course` reads the same results whichever build system the toolchain defaults to.
struct BuildSystemTests {
  @Test func everySwiftCommandCourseRunsNamesTheNativeBuildSystem() throws {
    let folder = try TemporaryWorkspace()
    let (_, output, runner) = folder.run(.status)
    let swift = runner.recorded.filter { $0.first == "swift" }
    #expect(swift.contains { $0.starts(with: ["swift", "build"]) }, "output: \(output)")
    #expect(swift.contains { $0.starts(with: ["swift", "test"]) }, "output: \(output)")
    for command in swift {
      // Swift Build (`swiftbuild`, the default from SwiftPM 6.4) starts one runner per
      // test target, and each overwrites the one event-stream file.
      #expect(
        command.firstIndex(of: "--build-system").map { command[$0 + 1] } == "native",
        "\(command.joined(separator: " ")) leaves the build system to the toolchain's default")
    }
  }
}
