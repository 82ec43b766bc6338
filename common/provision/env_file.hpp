#pragma once
// The profile's environment file (the env.file step): where it is beside the fix-ups' file, and its
// bytes. One rule for the agent, which writes and checks it, and for the CLI's cloud-init user data,
// which has cloud-init write the same bytes at a distro's first boot.

#include <string>

#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {

// Next to the profile's environment file: "<env_file>.fixups" (linux/provision/fixup_env.hpp writes it).
std::string fixups_env_path(const ProvisionPlan& plan);

// The environment file's bytes for the plan ("export NAME='value'" lines, then one that sources the
// fix-ups' file when it exists).
std::string env_file_text(const ProvisionPlan& plan);

}  // namespace tfwsl::provision
