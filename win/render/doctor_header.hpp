#pragma once
// The lines at the top of `tfwsl doctor`'s text: what is judged. The profile (and the file or rule
// it came from), the distribution and the GPU; and when the distro's installed agent is older than
// this tfwsl, the command that upgrades it.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/profile/profile_locate.hpp"

namespace tfwsl::cli {

// `facts`: DoctorResult::facts (the host's GPUs, the chosen distro, the agent's facts).
std::vector<std::string> doctor_header(const ProfileChoice& profile, const nlohmann::json& facts, bool is_windows);

}  // namespace tfwsl::cli
