#pragma once
// tfwsl uninstall: removes what tfwsl made and nothing it did not (docs/uninstall.md; the work is
// uninstall_task.hpp, the words uninstall_report.hpp).

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_uninstall_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
