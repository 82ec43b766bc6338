#pragma once
// CreateProcess takes one command-line string, which the child splits again with the MSVC runtime's
// rules (CommandLineToArgvW). Boost.Process v1 quotes arguments by doubling quotes, which those rules
// do not undo, so we build the string ourselves. Pure functions: tested on every platform.

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

// The whole command line, each argument quoted so that CommandLineToArgvW yields it back unchanged
// (windows_argument_quote, common/util/shell_quote: the one MSVC quoter, which printed cmd and
// PowerShell commands use too).
std::string build_windows_command_line(const std::vector<std::string>& argv);

// The inverse (CommandLineToArgvW's rules, post-2008 variant), for tests and for the wsl.exe stand-in.
std::vector<std::string> split_windows_command_line(std::string_view command_line);

}  // namespace tfwsl
