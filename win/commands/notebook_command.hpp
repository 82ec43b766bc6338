#pragma once
// `tfwsl notebook [--project DIR] [--dry-run] [--yes] [--no-start] [--port N]`: the migrated
// project's venv as a Jupyter kernel, and JupyterLab in its WSL copy (win/tasks/notebook_start.hpp;
// docs/cli.md, "tfwsl notebook").

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_notebook_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
