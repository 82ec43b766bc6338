#pragma once
// One file per subcommand in win/commands/; each exposes register_<name>_command and is listed once
// in command_registry.cpp, which hands each the one Machine the program's main built.

#include "common/cli/command_line.hpp"
#include "win/fleet/tfwsl_invoker.hpp"
#include "win/tasks/doctor_fix.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// run_tfwsl: runs another tfwsl command line in this process (what `doctor --fix` runs).
// run_captured: the same, on string streams (what `tfwsl dsc` runs).
void register_commands(CLI::App& app, CommandTable& commands, Console& console, Machine& machine,
                       const RunTfwsl& run_tfwsl, const RunTfwslCaptured& run_captured);

}  // namespace tfwsl::cli
