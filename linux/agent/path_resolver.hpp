#pragma once
// POST /v1/paths/resolve: a Windows path -> the Linux path through this distro's mounts.
// Pure: the caller supplies the automount root (/etc/wsl.conf), the distro name and the mount table.

#include <string>
#include <vector>

#include "common/agent_api/api_types.hpp"
#include "common/core/error.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::agent {

struct PathContext {
  std::string automount_root = "/mnt/";          // /etc/wsl.conf [automount] root, with or without the final '/'
  std::string distro;                            // WSL_DISTRO_NAME, for \\wsl$\<distro>\ paths
  std::vector<linux_checks::MountEntry> mounts;  // empty: mounts unknown, drive letters are not checked
};

// invalid_input for malformed or relative paths; not_found for an unmapped network drive, another
// distro, or a drive that is not mounted. Messages name the path and the fix.
Result<agent_api::PathResolveResponse> resolve_windows_path(const std::string& windows_path,
                                                            const PathContext& context);

}  // namespace tfwsl::agent
