#pragma once
// One file per subcommand in linux/commands/; each is listed once in command_registry.cpp.

#include "common/cli/command_line.hpp"

namespace tfwsl::agent {

void register_commands(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::agent
