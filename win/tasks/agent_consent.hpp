#pragma once
// Consent before `tfwsl agent start` installs into the distro or `tfwsl data push --move` deletes
// Windows files, as a Status for these commands: the one rule of win/render/change_consent.hpp
// (--yes agrees; on a terminal the user is asked; anywhere else nothing happens and the message says
// to pass --yes).

#include <iostream>
#include <string>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"

namespace tfwsl::cli {

// cancelled when the user says no (or stdin ends), invalid_input when nobody can be asked.
Status confirm_change(Console& console, bool yes, const std::string& question, const std::string& what,
                      std::istream& in = std::cin);

}  // namespace tfwsl::cli
