#pragma once
// What "ok" means on the Windows side for a profile: the Windows build that has GPU
// paravirtualization in WSL 2 and the oldest Windows driver that runs the profile's CUDA toolkit,
// both taken from the compatibility data (profiles/compat.yaml), never from literals in code.

#include <string>

#include "common/compat/compat_db.hpp"
#include "common/core/error.hpp"
#include "common/profile/profile.hpp"
#include "win/host/host_checks.hpp"

namespace tfwsl::doctor {

// The driver floor is CUDA's minor-version compatibility minimum for the toolkit's major version
// (12.x: 528.33 on Windows), since WSL uses the Windows driver and any 12.x toolkit runs on it;
// without such a floor, the toolkit's own minimum. A profile without a CUDA toolkit sets no floor.
Result<host::HostPolicy> host_policy_for(const Profile& profile, const std::string& profile_label,
                                         const CompatDb& compat);

// Loads `name_or_path` (a built-in profile name or a YAML file) and derives its policy.
Result<host::HostPolicy> host_policy_for_profile(const std::string& name_or_path, const CompatDb& compat);

}  // namespace tfwsl::doctor
