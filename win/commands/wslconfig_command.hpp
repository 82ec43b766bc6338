#pragma once
// tfwsl wslconfig show | set KEY=VALUE... | unset KEY... [--file PATH] [--apply] [--dry-run] [--yes]
// [--json] (docs/wslconfig.md): thin over common/wslconfig (the editor, the lint, the effective
// values, the apply-and-verify steps) and the atomic-replace port.

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

// The host's RAM and logical processors come from the Console's machine ports when a test program
// set them (the Wine stand-in world plays a 16 GB machine), else from the machine itself.
void register_wslconfig_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::cli
