#include "win/platform/linux_side.hpp"

#include <unistd.h>

#include <filesystem>

#include "linux/checks/check_policy.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::cli {

std::optional<doctor::LinuxSide> in_process_linux_side(const std::string& profile) {
  doctor::LinuxSide side;
  auto policy = linux_checks::check_policy_for_profile(profile);
  if (!policy) {
    side.error = policy.error().describe();
    return side;
  }
  auto env = linux_checks::system_probe_environment();
  auto facts = linux_checks::gather_facts(env);
  side.checks = linux_checks::assess(facts, *policy);
  side.gpu = facts.gpu;
  side.link = doctor::AgentLink::in_process;
  side.description = "the agent's checks, run in this process";
  return side;
}

std::string own_executable_path() {
  std::error_code ec;
  return std::filesystem::read_symlink("/proc/self/exe", ec).string();
}

}  // namespace tfwsl::cli
