#include "win/platform/linux_side.hpp"

#include <unistd.h>

#include <filesystem>

#include "linux/checks/linux_checks.hpp"

namespace tfwsl::cli {

std::optional<doctor::LinuxSide> in_process_linux_side() {
  doctor::LinuxSide side;
  auto env = linux_checks::system_probe_environment();
  auto facts = linux_checks::gather_facts(env);
  side.checks = linux_checks::assess(facts, linux_checks::CheckPolicy{});
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
