#pragma once
// Asking before a change that cannot be taken back (installing the agent into the distro, --move
// deleting Windows files): --yes answers for the user; otherwise the question goes to stderr and the
// answer comes from stdin, which must be a terminal (a script that did not say --yes is refused,
// never taken as consent).

#include <iostream>
#include <string>

#include "common/cli/command_line.hpp"
#include "common/core/error.hpp"

namespace tfwsl::cli {

// cancelled when the user says no (or stdin ends), invalid_input when nobody can be asked.
Status ask_consent(Console& console, bool yes, const std::string& question, std::istream& in = std::cin);

}  // namespace tfwsl::cli
