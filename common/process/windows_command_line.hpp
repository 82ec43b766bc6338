#pragma once
// CreateProcess takes one command-line string, which the child splits again with the MSVC runtime's
// rules (CommandLineToArgvW). Boost.Process v1 quotes arguments by doubling quotes, which those rules
// do not undo, so we build the string ourselves. Pure functions: tested on every platform.

#include <string>
#include <string_view>
#include <vector>

namespace tfwsl {

// Quotes one argument so that CommandLineToArgvW yields it back unchanged.
std::string quote_windows_argument(std::string_view argument);

// The whole command line: argv[0] quoted the same way.
std::string build_windows_command_line(const std::vector<std::string>& argv);

// The inverse (CommandLineToArgvW's rules, post-2008 variant), for tests and for the wsl.exe stand-in.
std::vector<std::string> split_windows_command_line(std::string_view command_line);

}  // namespace tfwsl
