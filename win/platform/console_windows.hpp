#pragma once
// The Windows console: UTF-8 code pages (put back as they were when tfwsl ends, also on Ctrl-C),
// which standard handles are a console, its width, whether it can show the check marks, and VT
// sequences (colour, the live status line), which a console interprets only with
// ENABLE_VIRTUAL_TERMINAL_PROCESSING (https://learn.microsoft.com/windows/console/console-virtual-terminal-sequences).

#include <cstddef>
#include <iosfwd>

#include "common/cli/color_choice.hpp"

namespace tfwsl {

// Sets the UTF-8 output and input code pages for as long as it lives and puts the console's own
// back when destroyed, or when Ctrl-C, Ctrl-Break or closing the window ends the process before that.
class Utf8ConsoleScope {
 public:
  Utf8ConsoleScope();
  ~Utf8ConsoleScope();
  Utf8ConsoleScope(const Utf8ConsoleScope&) = delete;
  Utf8ConsoleScope& operator=(const Utf8ConsoleScope&) = delete;
};

struct ConsoleHandles {
  bool out = false;  // stdout is a console (not redirected to a file or pipe)
  bool err = false;
  bool in = false;
};
ConsoleHandles console_handles();

// The console window's width in columns (stdout's, else stderr's); 80 when neither is a console.
std::size_t console_columns();

// Whether ✓ and ✗ show: not on the classic console host, whose raster fonts lack them (Windows
// Terminal says WT_SESSION; ConEmu ConEmuANSI=ON); always when stdout is a file or a pipe (UTF-8).
bool console_shows_check_marks(bool out_is_console, const EnvironmentLookup& environment);

// Turns on VT processing for the console behind std::cout (or, for any other stream, std::cerr);
// false when that handle is no console or the console cannot (before Windows 10 1511).
bool enable_virtual_terminal(const std::ostream& stream);

}  // namespace tfwsl
