#pragma once
// WSL's default distribution by name, for the commands that act in "the default distro" when no
// --distro is given (data push, agent start): so that what they print names it (`in Ubuntu-22.04`,
// `\\wsl.localhost\Ubuntu-22.04\...`) rather than a name guessed from elsewhere.

#include <optional>
#include <string>
#include <vector>

#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

// The line `wsl -l -v` marks with `*`; empty when wsl.exe cannot tell (it did not run or failed,
// no distribution is installed, none is marked).
std::string default_distro_name(wsl::WslClient& wsl);

// The WSL 2 distributions `wsl -l -v` lists, by name; nothing when wsl.exe cannot tell.
std::optional<std::vector<std::string>> wsl2_distro_names(wsl::WslClient& wsl);

// `option` (--distro) when given, else default_distro_name (still empty when that cannot tell).
std::string distro_or_default(wsl::WslClient& wsl, const std::string& option);

}  // namespace tfwsl::cli
