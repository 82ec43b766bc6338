#pragma once
// tfwsl-agent project write | read | manifest | place: the files `tfwsl migrate` keeps in a
// project's WSL copy, each beneath the project folder's descriptor and never through a link
// (linux/project/project_tree.hpp), as the distro user. The bytes of a write come on stdin, so the
// caller builds no shell text; every answer is one JSON object (schema tfwsl.agent-project).

#include "common/cli/command_line.hpp"

namespace tfwsl::agent {

void register_project_command(CLI::App& app, CommandTable& commands, Console& console);

}  // namespace tfwsl::agent
