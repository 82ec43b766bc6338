#pragma once
// The profile a command of this CLI uses: choose_profile (common/profile/profile_locate.hpp) with
// this process's current folder, environment and platform, then loaded through the one loader.

#include <ostream>
#include <string>
#include <string_view>

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

// choose_profile for `command` ("tfwsl doctor"), saying on `err` which file it uses when it found
// one by looking (the project's or the user's), and every file it passed over with why.
ProfileChoice announced_profile_choice(const std::string& option, std::string_view command, std::ostream& err);

// The lines announced_profile_choice writes.
void announce_profile_choice(const ProfileChoice& choice, std::string_view command, std::ostream& err);

}  // namespace tfwsl::cli
