#pragma once
// The checks of the container route's own steps (container_plan.hpp): the toolkit repository's key
// and sources entry, the CDI spec (cdi_spec.hpp), the image in the user's store, and TensorFlow's
// GPU check in the image (container_probe.hpp). Podman runs as the distro's user, never as root:
// the image and its store are the user's.

#include <optional>

#include "common/provision/provision_plan.hpp"
#include "linux/provision/distro_step_checks.hpp"

namespace tfwsl::provision {

// Nothing for a step that is not one of these (the apt steps are checked as every apt step is).
std::optional<StepCheck> check_container_step(const PlannedStep& step, CheckContext& context);

// The container route's commands as the user: the distro's user, refused when it is root or
// unknown (rootless Podman keeps the image in that user's home).
Result<const DistroUser*> container_user(const DistroUser* user);

}  // namespace tfwsl::provision
