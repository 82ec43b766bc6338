#pragma once
// tfwsl provision: a profile turned into a working distro (common/provision's plan): the host
// steps here, the distro steps by tfwsl-agent provision as root in the distro (wsl.exe -u root on
// Windows, a child on native Linux). --dry-run prints the plan, --check what would change.

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_provision_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
