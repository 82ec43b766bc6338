#pragma once
// tfwsl dsc get|test|set|export --resource TYPE [--input JSON]: a DSC v3 command-based resource
// (docs/fleet.md). The desired state comes as JSON on stdin (or --input; none, as DSC sends for a
// get without input, is {}), the actual state goes to stdout as one JSON line (test: then the
// differing properties as a JSON array; export: one line per instance), an error to stderr as the
// line DSC logs at error level ({"error": "..."}). Exit 0 whenever the operation ran (a test out
// of the desired state included: that is what `_inDesiredState` says), 2 on an error.
// `tfwsl dsc manifest|schema --resource TYPE` print the manifest and the instance schema.

#include "common/cli/command_line.hpp"
#include "win/fleet/tfwsl_invoker.hpp"

namespace tfwsl::cli {

// The resources run tfwsl's own commands in this process through `run_tfwsl` (the registry's), on
// the program's one machine.
void register_dsc_command(CLI::App& app, CommandTable& commands, Console& console, const RunTfwslCaptured& run_tfwsl);

}  // namespace tfwsl::cli
