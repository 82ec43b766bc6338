#pragma once
// The lines at the top of `tfwsl doctor`'s text: what is judged. The profile (and the file or rule
// it came from), the distribution and the GPU; and when the distro's installed agent is older than
// this tfwsl, the command that upgrades it.

#include <string>
#include <vector>

#include "common/profile/profile_locate.hpp"
#include "win/doctor/doctor.hpp"

namespace tfwsl::cli {

// `machine`: DoctorResult::machine (the host's GPUs, the chosen distro, the agent and its facts).
std::vector<std::string> doctor_header(const ProfileChoice& profile, const doctor::MachineFacts& machine,
                                       bool is_windows);

}  // namespace tfwsl::cli
