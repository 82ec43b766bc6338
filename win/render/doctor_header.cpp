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

std::string text_at(const nlohmann::json& j, const nlohmann::json::json_pointer& at) {
  return j.contains(at) && j[at].is_string() ? j[at].get<std::string>() : std::string();
}

// The Windows side's first GPU (nvidia-smi.exe), else the one the agent's libcuda lists.
std::string gpu_text(const nlohmann::json& facts) {
  std::string name = text_at(facts, "/host/gpus/0/name"_json_pointer);
  std::string driver = text_at(facts, "/host/gpus/0/driver_version"_json_pointer);
  if (name.empty()) name = text_at(facts, "/linux/gpu/devices/0/name"_json_pointer);
  if (driver.empty()) driver = text_at(facts, "/linux/gpu/nvml/driver_version"_json_pointer);
  if (name.empty()) return "none seen";
  return driver.empty() ? name : name + ", driver " + driver;
}

}  // namespace

std::vector<std::string> doctor_header(const ProfileChoice& profile, const nlohmann::json& facts, bool is_windows) {
  std::string distro = text_at(facts, "/wsl/chosen_distro"_json_pointer);
  if (!is_windows)
    distro = "this Linux machine (the native build: no WSL)";
  else if (distro.empty())
    distro = "none usable";
  std::vector<std::string> lines{profile_line(profile), "Distro: " + distro + "; GPU: " + gpu_text(facts)};
  // tfwsl was upgraded since the distro's agent was installed: the doctor ran the shipped one and
  // installs nothing, so it names the command that upgrades it (agent_upgrade.hpp).
  const std::string installed = text_at(facts, "/agent/installed_version"_json_pointer);
  if (agent_is_older(installed))
    lines.push_back("Agent: " + older_agent_words(installed, text_at(facts, "/wsl/chosen_distro"_json_pointer)));
  return lines;
}

}  // namespace tfwsl::cli
