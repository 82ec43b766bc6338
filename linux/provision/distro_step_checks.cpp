#include "linux/provision/distro_step_checks.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <fstream>
#include <memory>
#include <sstream>

#include "common/judge/assess.hpp"
#include "common/profile/profile_validator.hpp"
#include "common/provision/env_file.hpp"
#include "linux/checks/probes.hpp"
#include "linux/provision/as_user_runner.hpp"
#include "linux/provision/container_step_checks.hpp"
#include "linux/provision/distro_path.hpp"
#include "linux/provision/dpkg_state.hpp"
#include "linux/provision/fixup_env.hpp"
#include "linux/provision/owned_file.hpp"
#include "linux/provision/step_process.hpp"
#include "linux/provision/venv_contents.hpp"

namespace tfwsl::provision {
namespace {

// On this machine the user's files must be the user's own (read_owned_file); a probe root's files
// belong to whoever made that copy.
std::optional<uid_t> user_file_owner(const CheckContext& c) {
  if (observes_other_root(c.root) || !c.user) return std::nullopt;
  return c.user->uid;
}

const linux_checks::TfFacts& probe(CheckContext& c) {
  if (!c.tf) {
    linux_checks::ProbeEnvironment env;
    const auto path = distro_path_at(c.root, fixups_env_path(*c.plan));
    const auto fixups = read_owned_file(path, user_file_owner(c));
    std::vector<std::string> dropped;
    auto kept = probe_fixups(parse_env_exports(fixups.value_or("")), &dropped);
    for (const auto& why : dropped) spdlog::warn("{}: {}; left out of the TensorFlow probe", path.string(), why);
    env.runner = std::make_shared<AsUserRunner>(*c.processes, c.user, std::move(kept), c.root);
    env.python = distro_path_at(c.root, c.plan->venv + "/bin/python").string();
    env.tf_timeout = c.tf_timeout;
    c.tf = linux_checks::probe_tensorflow(env);
  }
  return *c.tf;
}

StepCheck check_packages(const PlannedStep& step, const CheckContext& c) {
  auto state = read_dpkg_state(c.root);
  if (!state) return {false, state.error().message};
  std::string missing;
  for (const auto& p : step.packages)
    if (!state->has(p)) missing += (missing.empty() ? "" : ", ") + p;
  if (missing.empty()) return {true, "installed: " + fmt::format("{}", fmt::join(step.packages, ", "))};
  return {false, "not installed: " + missing};
}

StepCheck check_dpkg(const CheckContext& c) {
  auto state = read_dpkg_state(c.root);
  if (!state) return {false, state.error().message};
  if (!state->interrupted()) return {true, "dpkg is consistent"};
  return {false, "dpkg was interrupted (" + state->describe_interruption() + "); the repair: dpkg --configure -a"};
}

StepCheck check_no_driver(const CheckContext& c) {
  auto state = read_dpkg_state(c.root);
  if (!state) return {false, state.error().message};
  for (const auto& p : state->installed)
    if (is_linux_driver_package(p))
      return {false, fmt::format("{} is installed inside WSL and replaces the driver Windows shares; remove it: "
                                 "sudo apt-get purge {}",
                                 p, p)};
  return {true, "no Linux NVIDIA driver package"};
}

StepCheck check_linux_driver(const CheckContext& c) {
  std::error_code ec;
  for (const char* p : {"dev/nvidiactl", "usr/lib/x86_64-linux-gnu/libcuda.so.1", "usr/lib64/libcuda.so.1"})
    if (std::filesystem::exists(c.root / p, ec)) return {true, std::string("found /") + p};
  return {false,
          "no NVIDIA Linux driver (no /dev/nvidiactl, no libcuda.so.1): install your distribution's driver package "
          "(tfwsl never installs a driver)"};
}

StepCheck check_venv(const CheckContext& c) {
  const std::string& venv = c.plan->venv;  // the messages name the distro's path
  const auto venv_at = distro_path_at(c.root, venv);
  auto version = venv_python_version(venv_at);
  std::error_code ec;
  if (!version || !std::filesystem::exists(venv_at / "bin/python", ec)) return {false, venv + " is not a venv"};
  const std::string want = c.plan->python.substr(std::string("python").size());  // "3.11"
  if (version->rfind(want + ".", 0) != 0 && *version != want)
    return {false, fmt::format("{} runs Python {}, the profile wants {}", venv, *version, want)};
  return {true, fmt::format("{} (Python {})", venv, *version)};
}

StepCheck check_requirements(const PlannedStep& step, const CheckContext& c) {
  const auto installed = venv_distributions(distro_path_at(c.root, c.plan->venv));
  std::string unmet;
  for (const auto& r : step.packages) {
    const std::string why = unmet_requirement(installed, r);
    if (!why.empty()) unmet += (unmet.empty() ? "" : "; ") + why;
  }
  if (unmet.empty()) return {true, "met: " + fmt::format("{}", fmt::join(step.packages, ", "))};
  return {false, unmet};
}

StepCheck check_env_file(const CheckContext& c) {
  const auto path = distro_path_at(c.root, c.plan->env_file);
  const auto text = read_owned_file(path, user_file_owner(c));
  if (text && *text == env_file_text(*c.plan)) return {true, c.plan->env_file + " is up to date"};
  std::error_code ec;
  if (text) return {false, c.plan->env_file + " differs from the profile"};
  const bool present = std::filesystem::exists(std::filesystem::symlink_status(path, ec));
  return {false, c.plan->env_file + (present ? " is not a regular file of the user's" : " is missing")};
}

StepCheck check_verify(CheckContext& c) {
  agent_api::LinuxFacts facts;
  facts.tf = probe(c);
  const auto report = judge::assess(facts, *c.policy);
  std::string problems;
  for (const auto& r : report.checks) {
    if (r.id.rfind("tf.", 0) != 0) continue;
    if (r.status != CheckStatus::ok) problems += (problems.empty() ? "" : "; ") + r.id + ": " + r.summary;
  }
  if (!problems.empty()) return {false, problems};
  return {true, fmt::format("TensorFlow {} sees {}", facts.tf.version, fmt::join(facts.tf.gpus, ", "))};
}

}  // namespace

bool tf_needs_library_links(const linux_checks::TfFacts& tf) {
  if (!tf.installed || !tf.gpus.empty()) return false;
  return tf.stderr_text.find("Cannot dlopen some GPU libraries") != std::string::npos ||
         tf.stderr_text.find("Couldn't get ptxas") != std::string::npos;
}

// XLA's gpu_backend_lib.cc when no --xla_gpu_cuda_data_dir holds nvvm/libdevice (TF 2.15 logs both).
bool tf_needs_xla_data_dir(const linux_checks::TfFacts& tf) {
  if (!tf.installed) return false;
  return tf.stderr_text.find("Can't find libdevice directory") != std::string::npos ||
         tf.stderr_text.find("libdevice not found at") != std::string::npos;
}

StepCheck check_distro_step(const PlannedStep& step, CheckContext& c) {
  const std::string_view id = step.definition->id;
  if (auto container = check_container_step(step, c)) return *container;
  if (id == "dpkg.health") return check_dpkg(c);
  if (id == "driver.none-in-wsl") return check_no_driver(c);
  if (id == "driver.linux") return check_linux_driver(c);
  if (id == "python.venv") return check_venv(c);
  if (id == "tensorflow.install") return check_requirements(step, c);
  if (id == "env.file") return check_env_file(c);
  if (id == "tensorflow.verify") return check_verify(c);
  if (id == "tensorflow.fixups") {
    const auto& tf = probe(c);
    if (tf_needs_library_links(tf)) return {false, "TensorFlow did not find the pip CUDA libraries or ptxas"};
    if (tf_needs_xla_data_dir(tf))
      return {false, "XLA did not find libdevice (XLA_FLAGS=--xla_gpu_cuda_data_dir is not set)"};
    return {true, "not needed: the probe found the CUDA libraries, ptxas and libdevice"};
  }
  return check_packages(step, c);  // apt.prerequisites, cuda.repository, cuda.toolkit, apt.packages
}

}  // namespace tfwsl::provision
