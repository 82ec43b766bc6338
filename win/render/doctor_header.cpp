#include "win/render/doctor_header.hpp"

#include "win/render/agent_version_words.hpp"

namespace tfwsl::cli {
namespace {

std::string profile_line(const ProfileChoice& p) {
  switch (p.origin) {
    case ProfileOrigin::command_line:
      return "Profile: " + p.name_or_path + " (--profile)";
    case ProfileOrigin::project:
      return "Profile: " + p.name_or_path + " (the project's tfwsl.yaml)";
    case ProfileOrigin::user:
      return "Profile: " + p.name_or_path + " (your default profile)";
    case ProfileOrigin::builtin:
      break;
  }
  return "Profile: " + p.name_or_path +
         " (built in: no --profile, no tfwsl.yaml here or above, no default profile of yours)";
}

// The Windows side's first GPU (nvidia-smi.exe), else the one the agent's libcuda lists.
std::string gpu_text(const doctor::MachineFacts& machine) {
  std::string name, driver;
  if (!machine.host.gpus.empty())
    name = machine.host.gpus.front().name, driver = machine.host.gpus.front().driver_version;
  if (const auto& facts = machine.linux_side.facts) {
    if (name.empty() && !facts->gpu.devices.empty()) name = facts->gpu.devices.front().name;
    if (driver.empty()) driver = facts->gpu.nvml_driver_version;
  }
  if (name.empty()) return "none seen";
  return driver.empty() ? name : name + ", driver " + driver;
}

}  // namespace

std::vector<std::string> doctor_header(const ProfileChoice& profile, const doctor::MachineFacts& machine,
                                       bool is_windows) {
  std::string distro = machine.distro;
  if (!is_windows)
    distro = "this Linux machine (the native build: no WSL)";
  else if (distro.empty())
    distro = "none usable";
  std::vector<std::string> lines{profile_line(profile), "Distro: " + distro + "; GPU: " + gpu_text(machine)};
  // tfwsl was upgraded since the distro's agent was installed: the doctor ran the shipped one and
  // installs nothing, so it names the command that upgrades it (agent_upgrade.hpp).
  const std::string& installed = machine.linux_side.installed_version;
  if (agent_is_older(installed)) lines.push_back("Agent: " + older_agent_words(installed, machine.distro));
  return lines;
}

}  // namespace tfwsl::cli
