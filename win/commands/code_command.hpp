#pragma once
// `tfwsl code [--project DIR] [--dry-run] [--yes] [--no-open]`: the migrated project's WSL copy
// set up for VS Code and opened there (win/tasks/vscode_setup.hpp; docs/cli.md, "tfwsl code").

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_code_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
