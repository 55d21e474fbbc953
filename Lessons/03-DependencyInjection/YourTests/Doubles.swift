@testable import Lesson03

// Tasks 8 and 9 (Docs/03-DependencyInjection.md): the test doubles your tests use
// go here: a stub that answers what the test says. The spy of Task 2 records calls.
