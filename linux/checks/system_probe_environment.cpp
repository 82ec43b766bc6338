#include <spdlog/spdlog.h>

#include <cstdlib>

#include "linux/checks/linux_checks.hpp"

namespace tfwsl::linux_checks {

ProbeEnvironment system_probe_environment(std::shared_ptr<ProcessRunner> processes) {
  ProbeEnvironment env;
  env.runner = std::move(processes);
  // A probe root (docs/agent-api.md, "Probe root"): the machine's files are read under it, its
  // libraries loaded only from its loader path (the library child is given the root), its disk
  // measured there. The Wine scenarios (tests/wsl_standin) give the agent a fake WSL distro this way.
  const char* root = std::getenv(k_probe_root_env);
  if (root && *root) {
    env.root = root;
    env.disk_path = root;
    spdlog::info("{}={}: probing the machine under that folder", k_probe_root_env, root);
  }
  return env;
}

}  // namespace tfwsl::linux_checks
