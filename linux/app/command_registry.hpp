#pragma once
// One file per subcommand in linux/commands/; each is listed once in command_registry.cpp, which
// hands those that start programs the one AgentMachine the main built.

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

void register_commands(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
