#pragma once
// The doctor's checks of the container route (a profile with route: container): the distro half of
// `tfwsl provision --check` for that profile, read as doctor checks. One implementation of each
// check, the agent's provision step check (linux/provision/container_step_checks.hpp): the engine
// installed, the toolkit, the CDI spec present and current (a stale one names the old and the new
// driver store), the image in the user's store by its digest, the GPU inside a container, and a
// TensorFlow op on GPU:0 inside the image. Their fix is `tfwsl provision --profile P`, which
// regenerates a stale spec, so `tfwsl doctor --fix` runs it.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "common/profile/profile.hpp"
#include "win/tasks/machine.hpp"

namespace tfwsl::cli {

// The rows, from a provision --check recap (docs/schema/provision.schema.json "recap"); a recap
// without the route's steps (the distro half did not run) gives each row skipped with the reason.
std::vector<CheckResult> container_checks_from_recap(const nlohmann::json& recap, const std::string& profile);

// Runs the check for `profile` (`profile_arg` as the user named it; `agent` is --agent on native
// Linux): the rows the doctor adds to its report before it folds it.
std::vector<CheckResult> container_route_checks(const Profile& profile, const std::string& profile_arg,
                                                const std::string& agent, Machine& machine);

}  // namespace tfwsl::cli
