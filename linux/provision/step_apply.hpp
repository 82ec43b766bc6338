#pragma once
// The apply of each distro step: the plan's catalogued commands (apt and dpkg as root after the
// dpkg lock is free, venv and pip as the user), or the agent's own work for the steps that only
// write files (the environment file, TensorFlow's library links).

#include <chrono>
#include <filesystem>
#include <functional>
#include <string>

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
  const linux_checks::TfFacts* tf = nullptr;           // the probe's answer that asked for the fix-ups
  AptRefreshState* apt_refresh = nullptr;              // the run's; nullptr: every `apt-get update` runs
  std::function<void(const ProgressEvent&)> progress;  // apt's and pip's progress as they print it (may be empty)
};

// Refuses first what step_refusal refuses, in its words.
Status apply_distro_step(const PlannedStep& step, const ApplyContext& context);

// What apply_distro_step refuses before it changes anything: a step that writes the venv where
// nobody may safely write it (venv_writer: e.g. a venv in a folder others may write). The check
// (--check, DSC test) reports it as the step's failure and --dry-run in place of the step's change,
// in the same words, so that neither promises a change the apply refuses.
Status step_refusal(const PlannedStep& step, const ProvisionPlan& plan, const DistroUser& user);

// --dry-run's plan: each step step_refusal refuses says so in place of what it would change.
void note_refusals(ProvisionPlan& plan, const DistroUser& user);

// An error as a step's recap shows it: the message, then the detail in parentheses.
std::string step_failure_text(const Error& error);

}  // namespace tfwsl::provision
