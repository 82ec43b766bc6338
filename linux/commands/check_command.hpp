#pragma once
// tfwsl-agent check [--json]: the Linux-side report, locally, without a server.

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

void register_check_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
