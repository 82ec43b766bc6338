#pragma once
// Which distro migrate sets the project up in. The shipped profiles for TF >= 2.16 name Ubuntu
// 24.04, but TensorFlow's own Python range (profiles/compat.yaml) is what decides: a user who has
// Ubuntu 22.04 runs TF 2.16 to 2.20 on its Python 3.10 as well. Installing a second distro costs
// gigabytes and a new home folder, so an installed WSL 2 Ubuntu whose python3 the target release
// supports (and the project's declared Python allows) is taken over installing the profile's own;
// either way the plan says which distro, whether it is installed here, and why, in one line.

#include <optional>
#include <string>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "win/migrate/project_scan.hpp"
#include "win/migrate/tf_decision.hpp"

namespace tfwsl::migrate {

// `installed`: the WSL 2 distributions of this machine by name; nothing when not known (native
// Linux, wsl.exe not answering): the profile's distro stays, and no line is added.
void choose_distro(const std::optional<std::vector<std::string>>& installed, const ProjectScan& scan,
                   const CompatDb& db, TfDecision& decision);

// What provisioning sets over the shipped profile for that choice ("distro=Ubuntu-22.04",
// "python.version='3.10'", profile_loader.hpp's override syntax); none when the profile's own stays.
std::vector<std::string> profile_overrides(const ShippedProfile& target);

}  // namespace tfwsl::migrate
