#pragma once
// `tfwsl provision --cloud-init`: the distro's half of a profile's provisioning as cloud-init user
// data, which Ubuntu's WSL datasource reads from the Windows user's profile, or Landscape delivers,
// at a distro's first boot (docs/fleet.md). It is the agent's own plan (common/provision), its
// distro steps in their order, each command the argv the agent runs; the Windows half (.wslconfig,
// installing the distro) stays with `tfwsl provision` and the other engines. The steps that are
// the agent's judgement (the driver check, TensorFlow's fix-ups and verdict) need the agent: the
// user data names them, and a later `tfwsl provision` (idempotent) completes them.

#include <string>

#include "common/core/error.hpp"
#include "common/provision/provision_plan.hpp"

namespace tfwsl::cli {

// The plan's settings for a distro that cloud-init sets up: inside WSL, for `user`, whose home is
// /home/<user> (cloud-init creates the user, and "~" in the profile's paths means that home).
provision::PlanSettings cloud_init_plan_settings(const std::string& user);

// Where the user data stages the environment file before the env.file step puts it in place as the user.
inline constexpr const char* k_cloud_init_env_stage = "/var/lib/tfwsl/cloud-init/profile.env";

// The user data ("#cloud-config" and YAML): the user, made the distro's default in /etc/wsl.conf,
// then `runcmd` with the plan's distro commands in order. invalid_input when the plan's user is
// not a name useradd takes.
Result<std::string> cloud_init_user_data(const provision::ProvisionPlan& plan);

}  // namespace tfwsl::cli
