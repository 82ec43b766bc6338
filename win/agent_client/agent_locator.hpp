#pragma once
// Which tfwsl-agent binary the CLI uses: the one it runs as a child on the native Linux build, the
// one it installs into the distro on Windows. The search order (docs/doctor.md):
//   1. --agent PATH                      (must exist when given)
//   2. TFWSL_AGENT=PATH                  (must exist when set)
//   3. tfwsl-agent beside the executable (as shipped: tfwsl.exe and tfwsl-agent in one folder)
//   4. ../linux/tfwsl-agent from the executable's folder, only when that folder lies in a build tree
//      (build/<preset>/win/tfwsl beside build/<preset>/CMakeCache.txt, build/<preset>/linux/tfwsl-agent):
//      an installed tfwsl (the release archive, winget, Scoop) looks beside itself only.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::agent_client {

inline constexpr const char* k_agent_binary_env = "TFWSL_AGENT";
inline constexpr const char* k_agent_binary_name = "tfwsl-agent";

struct AgentSearch {
  std::string option;                // --agent; empty: not given
  std::optional<std::string> env;    // TFWSL_AGENT
  std::filesystem::path executable;  // the running tfwsl; empty: unknown
  bool in_build_tree = false;        // executable lies in a CMake build folder (in_build_tree())
};

// Whether `executable` was built in place: its folder's parent holds CMakeCache.txt, as
// build/<preset>/win/tfwsl does. An installed tfwsl.exe never sits there.
bool in_build_tree(const std::filesystem::path& executable,
                   const std::function<bool(const std::filesystem::path&)>& is_file);

// What to do when no tfwsl-agent is found: build it in a build tree, reinstall tfwsl otherwise
// (the release archive, winget and Scoop put tfwsl-agent beside tfwsl.exe).
std::string missing_agent_fix(bool in_build_tree);

struct AgentCandidate {
  std::filesystem::path path;
  std::string source;  // "--agent", "TFWSL_AGENT", "beside tfwsl", "the build tree"
};

// The places to look, in order; an explicit choice (--agent, then TFWSL_AGENT) is the only one.
std::vector<AgentCandidate> agent_candidates(const AgentSearch& search);

// The first candidate that is a file. not_found names every place looked and the fix.
Result<std::filesystem::path> find_agent_binary(const AgentSearch& search,
                                                const std::function<bool(const std::filesystem::path&)>& is_file);

}  // namespace tfwsl::agent_client
