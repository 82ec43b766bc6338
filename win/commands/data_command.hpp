#pragma once
// tfwsl data push SRC [--name N] [--to DIR] [--distro D] [--move] [--verify] [--jobs N] [--dry-run]
// [--yes] [--json] [--agent PATH] (docs/datasets.md, "tfwsl data push"; the logic is win/push).

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_data_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
