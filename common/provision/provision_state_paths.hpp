#pragma once
// Where the agent keeps `tfwsl provision`'s state in the distro when no --state-dir is given: its
// journal and lock, and each step's log below it (named RUN-STEP.log). One place, so the agent's
// default and the CLI's messages that send a person there agree.

namespace tfwsl::provision {

inline constexpr const char* k_default_state_dir = "/var/lib/tfwsl/provision";
inline constexpr const char* k_default_step_logs_dir = "/var/lib/tfwsl/provision/logs";

}  // namespace tfwsl::provision
