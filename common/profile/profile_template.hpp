#pragma once
// What `tfwsl profile init` writes: a profile (the built-in default) as YAML with a comment on each
// key saying what it is for, then every key it does not set, commented out with an example value,
// so a team edits one file instead of reading the docs first. Comments are YAML comments: loading
// the file gives the same profile as emit_profile's output.

#include <string>

#include "common/profile/profile.hpp"

namespace tfwsl {

// `intro`: the first comment lines (without '#'), e.g. where the profile came from.
std::string commented_profile(const Profile& profile, const std::string& intro);

}  // namespace tfwsl
