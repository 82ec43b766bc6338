#pragma once
// The check of each distro step (is it already done?), from files the agent reads itself: dpkg's
// status, the venv's dist-info, the environment file. Only the TensorFlow steps start a process
// (the agent's TensorFlow probe, as the user, never pip).

#include <filesystem>
#include <optional>
#include <string>

#include "common/judge/check_policy.hpp"
#include "common/process/process_runner.hpp"
#include "common/provision/env_file.hpp"  // env_file_text, which the env.file check compares
#include "common/provision/provision_plan.hpp"
#include "linux/checks/linux_facts.hpp"
#include "linux/provision/step_process.hpp"

namespace tfwsl::provision {

struct StepCheck {
  bool done = false;
  std::string message;  // what was found
};

struct CheckContext {
  const ProvisionPlan* plan = nullptr;
  std::filesystem::path root = "/";
  const DistroUser* user = nullptr;
  const judge::CheckPolicy* policy = nullptr;
  std::chrono::milliseconds tf_timeout{std::chrono::seconds(180)};
  std::optional<linux_checks::TfFacts> tf;  // the probe's last answer, until something changes
  ProcessRunner* processes = nullptr;       // the machine's: the probe's runner wraps it (required)
};

StepCheck check_distro_step(const PlannedStep& step, CheckContext& context);

// The probe's log says TensorFlow did not find the pip CUDA libraries or ptxas (what TensorFlow's
// install guide fixes with links): "Cannot dlopen some GPU libraries", "Couldn't get ptxas".
bool tf_needs_library_links(const linux_checks::TfFacts& tf);

// The probe's log says XLA found no libdevice (what TensorFlow's install guide fixes with
// XLA_FLAGS=--xla_gpu_cuda_data_dir=...): "Can't find libdevice directory", "libdevice not found at".
bool tf_needs_xla_data_dir(const linux_checks::TfFacts& tf);

}  // namespace tfwsl::provision
