import Testing

#if SOLUTION
  @testable import Solution07
#else
  @testable import Lesson07
#endif
