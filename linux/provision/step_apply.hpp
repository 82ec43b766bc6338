#pragma once
// The apply of each distro step: the plan's catalogued commands (apt and dpkg as root after the
// dpkg lock is free, venv and pip as the user), or the agent's own work for the steps that only
// write files (the environment file, TensorFlow's library links).

#include <chrono>
#include <filesystem>
#include <functional>

#include "common/core/error.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_plan.hpp"
#include "linux/checks/linux_facts.hpp"
#include "linux/provision/apt_sources_state.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

struct ApplyContext {
  const ProvisionPlan* plan = nullptr;
  const DistroUser* user = nullptr;
  StepLogs logs;
  std::filesystem::path root = "/";
  std::chrono::milliseconds lock_wait{std::chrono::seconds(120)};
  std::chrono::milliseconds command_timeout{std::chrono::minutes(60)};
  const linux_checks::TfFacts* tf = nullptr;  // the probe's answer that asked for the fix-ups
  AptRefreshState* apt_refresh = nullptr;     // the run's; nullptr: every `apt-get update` runs
  std::function<void(const ProgressEvent&)> progress;  // apt's and pip's progress as they print it (may be empty)
};

Status apply_distro_step(const PlannedStep& step, const ApplyContext& context);

}  // namespace tfwsl::provision
