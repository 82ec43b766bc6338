#include "win/platform/paste_input.hpp"

namespace tfwsl::cli {

void read_stdin_as_bytes() {}

// The terminal's EOF character (termios VEOF, Ctrl-D by default) ends the read at a line's start.
const char* end_of_paste_keys() { return "Ctrl-D on a new line"; }

}  // namespace tfwsl::cli
