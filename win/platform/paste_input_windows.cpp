#include <fcntl.h>
#include <io.h>

#include <cstdio>

#include "win/platform/paste_input.hpp"

namespace tfwsl::cli {

void read_stdin_as_bytes() { _setmode(_fileno(stdin), _O_BINARY); }

// The console ends a read at a line that holds only Ctrl-Z (^Z) followed by Enter.
const char* end_of_paste_keys() { return "Ctrl-Z then Enter on a new line"; }

}  // namespace tfwsl::cli
