// SQLite's C API for Linux, where no SQLite3 module ships with the toolchain.
// Apple platforms import SQLite3 from the SDK instead.
#include <sqlite3.h>
