#pragma once
// tfwsl-agent dataset import: the local entry point of the copy engine (linux/dataset/).

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

void register_dataset_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
