#pragma once
// The host steps of `tfwsl provision` on Windows, through wsl.exe and .wslconfig: each checked
// first, applied only when needed (the distro install, WSL 2, the .wslconfig values and
// gpuSupport); WSL itself, Virtual Machine Platform and the default user are checked and, when
// missing, reported with the catalogued command to run (they need an administrator, a restart or
// a password). Results are rows of the recap: {"id", "title", "result", "message"}.

#include <nlohmann/json.hpp>
#include <string>

#include "common/process/process_runner.hpp"
#include "common/provision/provision_plan.hpp"
#include "win/wsl/wsl_client.hpp"

namespace tfwsl::cli {

struct HostStepSettings {
  bool check_only = false;
  std::string wslconfig_path;  // TFWSL_WSLCONFIG, else %USERPROFILE%\.wslconfig
};

// {"steps": [...], "failed": "<id>" or absent, "default_user": the distro's, when found}; the first
// failure stops the host steps.
nlohmann::json run_host_steps(const provision::ProvisionPlan& plan, wsl::WslClient& wsl, ProcessRunner& runner,
                              const HostStepSettings& settings);

}  // namespace tfwsl::cli
