#pragma once
// One file per subcommand in win/commands/; each exposes register_<name>_command and is listed once
// in command_registry.cpp.

#include "common/cli/command_line.hpp"
#include "win/tasks/doctor_fix.hpp"

namespace tfwsl::cli {

// run_tfwsl: runs another tfwsl command line in this process (what `doctor --fix` runs).
void register_commands(CLI::App& app, CommandTable& commands, Console& console, const RunTfwsl& run_tfwsl);

}  // namespace tfwsl::cli
