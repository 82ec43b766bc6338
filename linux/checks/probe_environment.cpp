#include "linux/checks/probe_environment.hpp"

namespace tfwsl::linux_checks {

std::filesystem::path ProbeEnvironment::at(const std::string& absolute) const {
  std::string relative = absolute;
  while (!relative.empty() && relative.front() == '/') relative.erase(0, 1);
  return root / relative;
}

}  // namespace tfwsl::linux_checks
