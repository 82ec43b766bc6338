#pragma once
// `tfwsl wslconfig restore [BACKUP] [--file PATH] [--dry-run] [--yes]`: lists the backups tfwsl made
// of .wslconfig (newest first, numbered), or puts one back: shown first, asked for on a terminal or
// taken with --yes; the file it replaces is itself kept as a backup, so a restore can be undone.

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// Adds `restore` under the `wslconfig` command group (the registry composes the two).
void register_wslconfig_restore_command(CLI::App* wslconfig_group, CommandTable& commands, Console& console,
                                        Machine& machine);

}  // namespace tfwsl::cli
