#pragma once
// The tfwsl-agent binary on this side, found as every command finds it: --agent, then TFWSL_AGENT,
// then beside tfwsl, then the build tree (agent_client::find_agent_binary's order).

#include <filesystem>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::cli {

Result<std::filesystem::path> find_local_agent_binary(const std::string& option);

}  // namespace tfwsl::cli
