#pragma once
// tfwsl doctor [--profile P] [--distro D] [--json] [-v] [--bundle FILE] [--agent PATH] (docs/doctor.md).

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

void register_doctor_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::cli
