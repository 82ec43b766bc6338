#pragma once
// The distro steps of the container route (route: container): Podman from the distro's archive,
// NVIDIA's container toolkit and the CDI spec it writes for the WSL GPU, the profile's image pulled
// by digest (or built from the profile's Dockerfile) into the user's store, and the check that
// TensorFlow in the image runs an op on GPU:0. The host steps and dpkg's health are the venv
// route's; provision_plan.cpp calls this in place of the venv's steps.

#include "common/core/error.hpp"
#include "common/profile/profile.hpp"
#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {

// Adds the route's steps after the plan's first distro steps (dpkg.health, the driver check);
// invalid_input when the profile lacks what a step needs (an image).
Status add_container_steps(ProvisionPlan& plan, const Profile& profile, const PlanSettings& settings);

// Where the agent keeps the Dockerfile it builds from, in the user's home ("~" unresolved when the
// plan has no home): ~/.cache/tfwsl/build/PROFILE.
std::string container_build_folder(const ProvisionPlan& plan, const std::string& home);

}  // namespace tfwsl::provision
