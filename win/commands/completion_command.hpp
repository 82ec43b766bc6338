#pragma once
// `tfwsl completion bash|zsh|fish|powershell`: prints a completion script made from this command
// table (win/render/completion_script.hpp); `--list distros|profiles`: the values the scripts offer.

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_completion_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
