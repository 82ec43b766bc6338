#pragma once
// The package names that may reach apt. A name must look like a Debian package name (Debian Policy
// 5.6.1: lower-case letters, digits, '+', '-', '.', at least two characters, starting with a
// letter or digit), so no option ("-o...") or path can be smuggled into apt's argv; and it must
// not be a package that installs a Linux NVIDIA driver inside WSL (`cuda`, `cuda-12-x`,
// `cuda-drivers`, ...: https://docs.nvidia.com/cuda/wsl-user-guide/index.html), even when a
// profile asks for one.

#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::provision {

bool looks_like_apt_package_name(std::string_view name);

// invalid_input naming the package and why, or nothing. `inside_wsl`: the driver packages are
// refused (on native Linux the driver is the user's business, never ours to install either, but a
// profile may name a library package there).
Status check_apt_package(std::string_view name, bool inside_wsl);

}  // namespace tfwsl::provision
