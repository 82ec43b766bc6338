#pragma once
// The body of tfwsl-agent's main, shared by the shipped agent (linux/app/main.cpp) and the test agent
// (tests/helpers/test_mains): the Console from the process's terminal and environment, the one
// AgentMachine of real ports, then `configure` (the test agent sets its step observer there; the
// shipped one passes nothing), then run_agent_cli.

#include <functional>

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

using ConfigureAgent = std::function<void(Console&, AgentMachine&)>;

int run_agent_program(int argc, char** argv, const ConfigureAgent& configure);

}  // namespace tfwsl::agent
