#pragma once
// tfwsl wslconfig show | set KEY=VALUE... | unset KEY... [--file PATH] [--apply] [--dry-run] [--yes]
// [--json] (docs/wslconfig.md): thin over common/wslconfig (the editor, the lint, the effective
// values, the apply-and-verify steps) and the atomic-replace port.

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

// Test hooks, documented in docs/wslconfig.md: the Windows machine's RAM and logical processors
// as this command sees them (the Wine stand-in world plays a 16 GB machine).
inline constexpr const char* k_host_ram_env = "TFWSL_TEST_HOST_RAM";
inline constexpr const char* k_host_processors_env = "TFWSL_TEST_HOST_PROCESSORS";

void register_wslconfig_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::cli
