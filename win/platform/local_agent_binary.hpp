#pragma once
// The tfwsl-agent binary on this side, found as every command finds it: --agent, then TFWSL_AGENT,
// then beside tfwsl, then the build tree when tfwsl runs from one (agent_client::find_agent_binary's order).

#include <filesystem>
#include <string>

#include "common/core/error.hpp"

namespace tfwsl::cli {

Result<std::filesystem::path> find_local_agent_binary(const std::string& option);
// This tfwsl runs from a CMake build folder rather than an installed copy (agent_client::in_build_tree).
bool running_from_build_tree();

}  // namespace tfwsl::cli
