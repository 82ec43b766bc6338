#pragma once
// What each check needs to be judged on its own (check_fold.hpp folds the echoes by it): one table
// for `tfwsl doctor` and `tfwsl-agent check`, over the ids of docs/doctor.md. An id a report lacks
// (wsl.agent in `tfwsl-agent check`) is simply not there to fold under.

#include "common/check/check_fold.hpp"

namespace tfwsl::judge {

// The precondition of the host and wsl.exe checks: tfwsl runs on Windows.
inline constexpr const char* k_platform_windows = "platform.windows";

const DependencyTable& check_dependencies();

// platform.windows, met or not, with the line a native-Linux report shows for what folds under it.
Precondition platform_windows(bool is_windows);

}  // namespace tfwsl::judge
