#pragma once
// One file per subcommand in win/commands/; each exposes register_<name>_command and is listed once
// in command_registry.cpp.

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

void register_commands(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::cli
