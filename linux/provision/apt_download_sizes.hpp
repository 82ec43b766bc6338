#pragma once
// apt's own figure for each apt step of a plan, asked in the distro before anything runs
// (`apt-get --print-uris install`, read-only, no root needed): only for the step's packages dpkg
// does not have (an installed package's step does not apply), and only where apt knows the
// package (cuda-toolkit-12-2 is unknown to it until NVIDIA's repository is added: that step keeps
// the known size from profiles/download-sizes.yaml).

#include <filesystem>

#include "common/process/process_runner.hpp"
#include "common/provision/provision_plan.hpp"

namespace tfwsl::provision {

// `root` is where dpkg's status is read (the agent's "/"); apt runs through `runner`.
void ask_apt_download_sizes(ProvisionPlan& plan, const std::filesystem::path& root, ProcessRunner& runner);

}  // namespace tfwsl::provision
