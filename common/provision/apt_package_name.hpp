#pragma once
// The package names that may reach apt: the profile's one rule (common/profile/apt_package_rule.hpp,
// which `tfwsl profile validate` applies too) and no package that installs a Linux NVIDIA driver
// inside WSL (`cuda`, `cuda-12-x`, `cuda-drivers`, ...:
// https://docs.nvidia.com/cuda/wsl-user-guide/index.html), even when a profile asks for one.

#include <string_view>

#include "common/core/error.hpp"
#include "common/profile/apt_package_rule.hpp"

namespace tfwsl::provision {

using tfwsl::looks_like_apt_package_name;

// invalid_input naming the package and why, or nothing. `inside_wsl`: the driver packages are
// refused (on native Linux the driver is the user's business, never ours to install either, but a
// profile may name a library package there).
Status check_apt_package(std::string_view name, bool inside_wsl);

}  // namespace tfwsl::provision
