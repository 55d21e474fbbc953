/// Apple names that stage docs may present as code although no course code mentions them.
///
/// `DocNamesCheck` accepts a name a doc shows as code only when the stage's
/// code or the course's Sources/ use it. A few names come from frameworks no
/// target can import (SwiftUI and SwiftData do not exist on Linux) or from
/// Foundation API the docs compare with the course's choice. They are listed
/// here, each group with the reason a doc names it. Keep the list small: a name
/// that the course's own code should have is a bug in the doc or the code, not
/// an entry here.
enum PlatformNames {
  static let all: Set<String> = swiftUI.union(swiftData).union(foundationDates)

  /// The docs show how a SwiftUI view binds the view model (stage 03: `List`, `.refreshable`).
  static let swiftUI: Set<String> = ["List", "refreshable"]

  /// Stage 04 sets its SQLite schema beside SwiftData's migrations and unique attributes.
  static let swiftData: Set<String> = ["VersionedSchema", "SchemaMigrationPlan", "Attribute"]

  /// Stage 02 explains why `.iso8601` and `ISO8601DateFormatter` are not how the course reads dates.
  static let foundationDates: Set<String> = [
    "DateDecodingStrategy", "iso8601", "ISO8601DateFormatter", "withInternetDateTime", "withFractionalSeconds",
  ]
}
