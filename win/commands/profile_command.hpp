#pragma once
// `tfwsl profile init | validate FILE | show [PROFILE] | diff [PROFILE] | export` (docs/profiles.md,
// docs/cli.md): thin commands over common/profile (the loader, validator, emitter, drift and
// export) and the profile choice every command shares (profile_choice.hpp).

#include "common/cli/command_line.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

void register_profile_command(CLI::App& app, CommandTable& commands, Console& console, Machine& machine);

}  // namespace tfwsl::cli
