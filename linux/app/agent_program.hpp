#pragma once
// The body of tfwsl-agent's main, shared by the shipped agent (linux/app/main.cpp) and the test agent
// (tests/helpers/test_mains): the Console from the process's terminal and environment, then
// `configure` (the test agent fills the machine ports; the shipped one passes nothing), then
// run_agent_cli.

#include <functional>

#include "common/cli/command_line.hpp"

namespace tfwsl::agent {

int run_agent_program(int argc, char** argv, const std::function<void(Console&)>& configure);

}  // namespace tfwsl::agent
