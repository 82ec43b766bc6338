#pragma once
// The tfwsl command line as a library: the thin mains (main_posix.cpp, main_windows.cpp) and the
// tests call run_cli with UTF-8 arguments and streams.

#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// args: the arguments after the program name, UTF-8. `machine`: the ports every command works on,
// built once by the caller (system_machine.hpp, or a test's).
int run_cli(const std::vector<std::string>& args, Console& console, Machine& machine);

}  // namespace tfwsl::cli
