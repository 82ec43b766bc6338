#pragma once
// The tfwsl command line as a library: the thin mains (main_posix.cpp, main_windows.cpp) and the
// tests call run_cli with UTF-8 arguments and streams.

#include <string>
#include <vector>

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

// args: the arguments after the program name, UTF-8.
int run_cli(const std::vector<std::string>& args, Console& console);

}  // namespace tfwsl::cli
