#pragma once
// The installed agent against this tfwsl: whether it is older, and the words that say how to
// upgrade it (the doctor's header and `tfwsl agent status` show them; agent_upgrade.hpp acts on them).

#include <string>

namespace tfwsl::cli {

// Whether `agent_version` ("0.1.0") is older than this tfwsl's; false when either does not parse.
bool agent_is_older(const std::string& agent_version);

// "tfwsl-agent 0.1.0 is installed in Ubuntu, this tfwsl is 0.2.0; to upgrade it: tfwsl agent start
// --distro Ubuntu" (no --distro when `distro` is empty); the version is shown visibly.
std::string older_agent_words(const std::string& installed_version, const std::string& distro);

}  // namespace tfwsl::cli
