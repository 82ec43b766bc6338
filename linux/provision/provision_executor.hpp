#pragma once
// Runs the distro steps of a plan (common/provision) inside Linux: each step is checked first and
// applied only when its check fails, then checked again; the first failure stops the run (what
// follows is skipped). One run at a time (a lock in the state folder: conflict for a second);
// every event goes to the journal, every process to the process log, every step's output to its
// log, and the recap says ok / changed / failed / skipped per step with the log it wrote.

#include <chrono>
#include <filesystem>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "common/agent_api/provision_recap.hpp"
#include "common/core/error.hpp"
#include "common/judge/check_policy.hpp"
#include "common/process/process_runner.hpp"
#include "common/provision/progress_event.hpp"
#include "common/provision/provision_plan.hpp"
#include "common/provision/provision_state_paths.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

// The recap is the wire's (common/agent_api/provision_recap.hpp): tfwsl reads what this writes.
using agent_api::ProvisionRecap;
using agent_api::StepRecord;
using agent_api::StepResult;
using agent_api::to_json;

struct ExecutorSettings {
  // Where the checks read the distro's files (dpkg's, the venv, the env file, the journal); another
  // root than "/" is a probe root, only ever checked (check_only), and then nothing is written.
  // The commands of an apply run in this process's "/".
  std::filesystem::path root = "/";
  std::filesystem::path state_dir = provision::k_default_state_dir;
  DistroUser user;
  bool check_only = false;  // --check: report what would change, change nothing
  std::chrono::milliseconds lock_wait{std::chrono::seconds(120)};
  std::chrono::milliseconds command_timeout{std::chrono::minutes(60)};
  std::chrono::milliseconds tf_timeout{std::chrono::seconds(180)};
  judge::CheckPolicy policy;  // what the final TensorFlow check must find
  // The machine's process runner, which the TensorFlow probe's runner (as the venv's user) wraps.
  ProcessRunner* processes = nullptr;
  // Each step's checking and applying, and apt's and pip's progress while it applies (may be empty).
  std::function<void(const ProgressEvent&)> progress;
};

// conflict when another run holds the state folder's lock; io when the state folder cannot be
// written. Everything else is in the recap.
Result<ProvisionRecap> run_distro_steps(const ProvisionPlan& plan, const ExecutorSettings& settings);

std::string render_recap(const ProvisionRecap& recap);

}  // namespace tfwsl::provision
