#pragma once
// Which value of a .wslconfig setting WSL really uses, and why: a computer policy (Group Policy or
// Intune, HKLM\Software\Policies\WSL) that makes WSL ignore the user's setting, a setting WSL
// ignores now (sparseVhd), and one that hides the GPU (gpuSupport=false). The doctor's
// `wslconfig.overrides` check and the networking mode the agent link is explained with.

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "win/doctor/doctor_checks.hpp"

namespace tfwsl::doctor {

// One .wslconfig setting whose value is not the one WSL uses.
struct Override {
  std::string key;        // "wsl2.networkingMode"
  std::string written;    // the user's value ("mirrored"); empty when the file does not set it
  std::string effective;  // the value WSL uses ("NAT"); empty when only "ignored" is known
  std::string why;        // "policy AllowNetworkingModeUserSetting=0 (HKLM\Software\Policies\WSL)"
};

std::vector<Override> wslconfig_overrides(const WslconfigFacts& file,
                                          const std::map<std::string, std::uint32_t>& policies);

// The networking mode WSL runs with ("mirrored", "nat", ...) and where that comes from.
struct NetworkingMode {
  std::string mode;    // lower case; "nat" when nothing sets it (WSL's default)
  std::string source;  // ".wslconfig", "policy DefaultNetworkingMode", "WSL's default"
};
NetworkingMode effective_networking_mode(const WslconfigFacts& file,
                                         const std::map<std::string, std::uint32_t>& policies);

// wslconfig.overrides: ok when WSL uses what the file says; warn for a policy or an ignored
// setting; fail when the GPU is switched off (gpuSupport=false) or WSL itself is blocked (AllowWSL=0).
CheckResult check_wslconfig_overrides(const WslconfigFacts& file, const std::map<std::string, std::uint32_t>& policies);

}  // namespace tfwsl::doctor
