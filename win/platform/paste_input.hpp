#pragma once
// Reading a paste from standard input, the platform's way: the bytes exactly as they come, and the
// key that ends a paste typed on a terminal.

namespace tfwsl::cli {

// Windows: stdin in binary mode, so that a UTF-16 paste piped in loses no bytes to text-mode
// translation (CR LF, Ctrl-Z). POSIX: nothing to do.
void read_stdin_as_bytes();

// How to end a paste on this platform's terminal, for a hint on stderr.
const char* end_of_paste_keys();

}  // namespace tfwsl::cli
