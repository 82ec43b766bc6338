#pragma once
// `tfwsl profile export`: a profile that describes a machine, so that `profile diff` of it on the
// same machine finds no drift. Only what the machine shows is written (a .wslconfig key that is not
// set stays out, and so does a TensorFlow that is not installed); export_machine_profile
// (profile_export_text.hpp) writes it, over a matching built-in profile where there is one.

#include <string>

#include "common/profile/profile.hpp"
#include "common/profile/profile_machine_facts.hpp"

namespace tfwsl {

inline constexpr const char* k_machine_source = "<this machine>";

Profile profile_from_machine(const ProfileMachineFacts& machine, const std::string& name);

}  // namespace tfwsl
