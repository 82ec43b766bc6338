#include "linux/checks/linux_checks.hpp"

namespace tfwsl::linux_checks {

ProbeEnvironment system_probe_environment() {
  ProbeEnvironment env;
  env.runner = std::make_shared<SystemProcessRunner>();
  env.loader = std::make_shared<DlopenLoader>();
  return env;
}

}  // namespace tfwsl::linux_checks
