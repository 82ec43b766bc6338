#pragma once
// `tfwsl explain [--json] FILE|-`: what a pasted output or log says, and what to do about it.

#include "common/cli/command_line.hpp"

namespace tfwsl::cli {

void register_explain_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::cli
