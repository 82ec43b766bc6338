#pragma once
// tfwsl agent start | status | stop: the persistent agent for editors and scripts
// (docs/agent-api.md, "A persistent agent"; the logic is win/agent_service).

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_agent_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
