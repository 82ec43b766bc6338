#pragma once
// tfwsl wslconfig show | set KEY=VALUE... | unset KEY... [--file PATH] [--apply] [--dry-run] [--yes]
// [--json] (docs/wslconfig.md): thin over common/wslconfig (the editor, the lint, the effective
// values, the apply-and-verify steps) and the atomic-replace port.

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// The host's RAM and logical processors come from the machine's host port (a test program's plays a
// 16 GB machine). Returns the `wslconfig` group, under which the registry adds `restore`.
CLI::App* register_wslconfig_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
