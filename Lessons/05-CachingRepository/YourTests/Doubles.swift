@testable import Lesson05

// Task 9 (Docs/05-CachingRepository.md): the doubles your tests use go here: a
// remote source that answers what the test says and counts its calls, and a
// store whose writes fail.
