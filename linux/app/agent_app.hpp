#pragma once
// The tfwsl-agent command line as a library (linked by the tests); main.cpp is thin.

#include <string>
#include <vector>

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

int run_agent_cli(const std::vector<std::string>& args, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
