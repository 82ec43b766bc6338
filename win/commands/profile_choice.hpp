#pragma once
// The profile a command of this CLI uses: choose_profile (common/profile/profile_locate.hpp) with
// this process's current folder, environment and platform, then loaded through the one loader.

#include <string>

#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_locate.hpp"

namespace tfwsl::cli {

// `option`: --profile (or a command's PROFILE argument) as given; empty when not given.
ProfileSearch profile_search(const std::string& option);

struct ChosenProfile {
  ProfileChoice choice;
  ProfileLoadResult loaded;
};

ChosenProfile load_chosen_profile(const std::string& option);

}  // namespace tfwsl::cli
