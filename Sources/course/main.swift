print("course")
