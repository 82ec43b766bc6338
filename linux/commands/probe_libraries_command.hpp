#pragma once
// tfwsl-agent probe-libraries gpu|cudnn --root DIR: internal (hidden from --help), the library child
// the agent's own probes run (linux/checks/library_probes.hpp). Prints one JSON object.

#include "common/cli/command_line.hpp"

namespace tfwsl::agent {

void register_probe_libraries_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::agent
