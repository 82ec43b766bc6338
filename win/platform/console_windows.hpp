#pragma once
// The Windows console: UTF-8 code pages, which standard handles are a console, and VT sequences
// (colour, the live status line), which a console interprets only with
// ENABLE_VIRTUAL_TERMINAL_PROCESSING (https://learn.microsoft.com/windows/console/console-virtual-terminal-sequences).

#include <iosfwd>

namespace tfwsl {

// UTF-8 output and input code pages.
void use_utf8_console();

struct ConsoleHandles {
  bool out = false;  // stdout is a console (not redirected to a file or pipe)
  bool err = false;
  bool in = false;
};
ConsoleHandles console_handles();

// Turns on VT processing for the console behind std::cout (or, for any other stream, std::cerr);
// false when that handle is no console or the console cannot (before Windows 10 1511).
bool enable_virtual_terminal(const std::ostream& stream);

}  // namespace tfwsl
