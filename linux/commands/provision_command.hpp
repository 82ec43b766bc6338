#pragma once
// tfwsl-agent provision: the distro steps of `tfwsl provision`, run inside Linux (as root for apt,
// as the user for the venv), from the plan common/provision builds for the profile.

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

void register_provision_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
