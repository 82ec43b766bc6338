#pragma once
// `tfwsl migrate PROJECT [--dry-run] [--json] [--force]`: move a Windows TensorFlow project into WSL
// (docs/migrate.md). The plan comes from win/migrate; this file reads the command line, asks
// the distro which drives it mounts, and prints.

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_migrate_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
