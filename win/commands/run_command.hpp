#pragma once
// `tfwsl run [--project DIR] [--] COMMAND [ARGS...]` and `tfwsl shell`: a command, or an
// interactive shell, in a migrated project's WSL copy with its venv and environment
// (win/tasks/project_run.hpp; docs/cli.md, "tfwsl run").

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_run_commands(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
