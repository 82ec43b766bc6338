#include "win/doctor/wslconfig_overrides.hpp"

#include <array>
#include <optional>

#include "common/util/ascii.hpp"
#include "common/wslconfig/wslconfig_document.hpp"

namespace tfwsl::doctor {
namespace {

constexpr const char* k_policy_key = "HKLM\\Software\\Policies\\WSL";

// Which .wslconfig setting each Allow*UserSetting policy governs (microsoft/WSL intune/WSL.admx and
// its explain texts, @ 3e27a6a5; learn.microsoft.com/windows/wsl/intune).
struct PolicyGate {
  const char* policy;
  const char* section;
  const char* key;
};
constexpr std::array<PolicyGate, 7> k_gates = {{
    {"AllowNetworkingModeUserSetting", "wsl2", "networkingMode"},
    {"AllowKernelUserSetting", "wsl2", "kernel"},
    {"AllowKernelCommandLineUserSetting", "wsl2", "kernelCommandLine"},
    {"AllowNestedVirtualization", "wsl2", "nestedVirtualization"},
    {"AllowKernelDebugUserSetting", "wsl2", "kernelDebugPort"},
    {"AllowFirewallUserSetting", "wsl2", "firewall"},
    {"AllowSystemDistroUserSetting", "wsl2", "systemDistro"},
}};

std::optional<std::uint32_t> policy(const std::map<std::string, std::uint32_t>& policies, const char* name) {
  auto it = policies.find(name);
  return it == policies.end() ? std::nullopt : std::optional<std::uint32_t>(it->second);
}

// DefaultNetworkingMode's enum (WSL.admx: 0 None, 1 NAT, 3 Mirrored, 4 VirtioProxy).
std::string policy_mode_name(std::uint32_t value) {
  switch (value) {
    case 0:
      return "none";
    case 1:
      return "nat";
    case 3:
      return "mirrored";
    case 4:
      return "virtioproxy";
    default:
      return "mode " + std::to_string(value);
  }
}

bool is_false(const std::optional<std::string>& v) {
  if (!v) return false;
  const std::string lower = ascii_lower(*v);
  return lower == "false" || lower == "0" || lower == "no" || lower == "off";
}

bool is_true(const std::optional<std::string>& v) {
  if (!v) return false;
  const std::string lower = ascii_lower(*v);
  return lower == "true" || lower == "1" || lower == "yes" || lower == "on";
}

}  // namespace

std::vector<Override> wslconfig_overrides(const WslconfigFacts& file,
                                          const std::map<std::string, std::uint32_t>& policies) {
  std::vector<Override> out;
  const wslconfig::Document& doc = file.document();
  for (const auto& gate : k_gates) {
    auto allowed = policy(policies, gate.policy);
    auto written = doc.get(gate.section, gate.key);
    if (!allowed || *allowed != 0 || !written) continue;
    Override o{std::string(gate.section) + "." + gate.key, *written, "",
               std::string("policy ") + gate.policy + "=0 (" + k_policy_key + ")"};
    if (std::string_view(gate.key) == "networkingMode")
      o.effective = policy_mode_name(policy(policies, "DefaultNetworkingMode").value_or(1));
    out.push_back(std::move(o));
  }
  // WSL 2.5 disabled sparse VHDs (MessageSparseVhdDisabled in WSL's Resources.resw): the setting is ignored.
  for (const char* section : {"experimental", "wsl2"}) {
    if (auto sparse = doc.get(section, "sparseVhd"); is_true(sparse))
      out.push_back({std::string(section) + ".sparseVhd", *sparse, "false",
                     "WSL has sparse VHD support disabled (possible data corruption)"});
  }
  return out;
}

NetworkingMode effective_networking_mode(const WslconfigFacts& file,
                                         const std::map<std::string, std::uint32_t>& policies) {
  const wslconfig::Document& doc = file.document();
  const auto written = doc.get("wsl2", "networkingMode");
  const auto allowed = policy(policies, "AllowNetworkingModeUserSetting");
  const auto forced = policy(policies, "DefaultNetworkingMode");
  if (written && (!allowed || *allowed != 0)) return {ascii_lower(*written), ".wslconfig"};
  if (forced) return {policy_mode_name(*forced), std::string("policy DefaultNetworkingMode (") + k_policy_key + ")"};
  return {"nat", "WSL's default"};
}

CheckResult check_wslconfig_overrides(const WslconfigFacts& file,
                                      const std::map<std::string, std::uint32_t>& policies) {
  if (auto wsl = policy(policies, "AllowWSL"); wsl && *wsl == 0)
    return make_check(
        "wslconfig.overrides", CheckStatus::fail,
        std::string("a computer policy blocks WSL on this machine (AllowWSL=0 under ") + k_policy_key + ")",
        "ask the administrator to allow the Windows Subsystem for Linux (Group Policy or Intune)");
  const wslconfig::Document& doc = file.document();
  if (is_false(doc.get("wsl2", "gpuSupport"))) {
    CheckResult r = make_check(
        "wslconfig.overrides", CheckStatus::fail, "gpuSupport=false in .wslconfig: WSL gives no distro a GPU",
        "remove the gpuSupport=false line under [wsl2] in " + file.path + ", then wsl --shutdown");
    r.details.push_back(file.path + " line " + std::to_string(doc.line_of("wsl2", "gpuSupport")));
    return r;
  }
  const auto overrides = wslconfig_overrides(file, policies);
  if (overrides.empty())
    return make_check("wslconfig.overrides", CheckStatus::ok,
                      policies.empty() ? "no computer policy for WSL; WSL uses the .wslconfig values as written"
                                       : "the computer's WSL policies leave the .wslconfig values as written");
  const Override& first = overrides.front();
  std::string summary = first.key + "=" + first.written + " is not used: " + first.why;
  if (!first.effective.empty()) summary += "; WSL uses " + first.effective;
  CheckResult r =
      make_check("wslconfig.overrides", CheckStatus::warn, summary,
                 first.why.starts_with("policy")
                     ? "the computer policy wins over " + file.path + ": ask the administrator, or drop the setting"
                     : "remove the setting from " + file.path + " (WSL ignores it)");
  for (const auto& o : overrides)
    r.details.push_back(o.key + "=" + o.written + ": " + o.why + (o.effective.empty() ? "" : " -> " + o.effective));
  return r;
}

}  // namespace tfwsl::doctor
