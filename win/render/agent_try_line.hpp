#pragma once
// The line `tfwsl agent start` and `status` print to try the running agent by hand, for the shell the
// person runs tfwsl from: PowerShell for tfwsl.exe on Windows (the token read through wsl.exe from
// the distro), bash on Linux, natively or inside WSL. Paths and names are quoted for that shell.

#include <string>

#include "common/util/text_wrap.hpp"

namespace tfwsl::cli {

struct TryLineSettings {
  bool windows = false;    // tfwsl.exe on Windows: a PowerShell line
  std::string distro;      // the distro the agent runs in (wsl.exe -d); empty: WSL's default
  std::string token_file;  // as the distro spells it
  int port = 0;
};

// "try (PowerShell): ..." or "try (bash, in the distro): ...", without a line break.
std::string agent_try_line(const TryLineSettings& settings);

// The command of that line and its shell: a line too long for the terminal continues between its
// arguments (common/cli/fitted_output.hpp).
PrintedCommand agent_try_command(const TryLineSettings& settings);

}  // namespace tfwsl::cli
