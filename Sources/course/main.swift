import CourseKit
import Foundation

exit(Course.main(arguments: Array(CommandLine.arguments.dropFirst())))
