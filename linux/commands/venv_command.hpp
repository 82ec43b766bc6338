#pragma once
// tfwsl-agent venv install | verify: a project's requirements into a provisioned venv (pip only
// when something is unmet) and the TensorFlow GPU check plus the project's import, as the distro's
// user. `tfwsl migrate` runs both through wsl.exe --exec.

#include "common/cli/command_line.hpp"
#include "linux/agent/agent_machine.hpp"

namespace tfwsl::agent {

void register_venv_command(CLI::App& app, CommandTable& commands, Console& console, AgentMachine& machine);

}  // namespace tfwsl::agent
