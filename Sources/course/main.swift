import CourseKit
import Foundation

// `course doctor --name NAME` names the learner in the line they paste; the
// name is taken out before the command line is parsed.
exit(Course.main(arguments: Course.takeDoctorName(from: Array(CommandLine.arguments.dropFirst()))))
