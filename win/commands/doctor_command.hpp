#pragma once
// tfwsl doctor [--profile P] [--distro D] [--json] [-v] [--bundle FILE] [--agent PATH] [--fix [--yes] [--dry-run]]
// (docs/doctor.md).

#include "common/cli/command_line.hpp"
#include "win/tasks/doctor_fix.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// run_tfwsl: how --fix runs a tfwsl command (run_cli in this process).
void register_doctor_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine,
                             const RunTfwsl& run_tfwsl);

}  // namespace tfwsl::cli
