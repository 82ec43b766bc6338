#pragma once
// The error states wsl.exe reports instead of the output that was asked for, recognised in any of
// its languages: the usage text or "invalid command line option" of an old inbox wsl.exe, "no
// installed distributions", the WSL 2 kernel update, virtualization turned off, a missing optional
// component, and the "Error code: Wsl/..." lines. Flags only: the explain engine maps them to
// finding ids.

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace tfwsl::parse {

struct WslErrorFlags {
  bool usage_text = false;                    // wsl.exe printed its usage (help) text
  bool invalid_option = false;                // "Invalid command line option/argument: --x" (any language)
  std::vector<std::string> rejected_options;  // the options it named ("--status", "-v")
  std::vector<std::string> mistyped_options;  // those one typo from a real option ("--satus")
  bool no_distribution = false;               // "has no installed distributions" / WSL_E_DEFAULT_DISTRO_NOT_FOUND
  bool no_running_distribution = false;       // "There are no running distributions."
  bool distro_not_found = false;              // "There is no distribution with the supplied name."
  bool kernel_update_needed = false;          // "WSL 2 requires an update to its kernel component"
  bool virtualization_disabled = false;       // MessageEnableVirtualization, 0x80370102, HCS_E_HYPERV_NOT_INSTALLED
  bool optional_component_missing = false;    // WSL or Virtual Machine Platform component not enabled
  bool packaged_wsl_unsupported = false;      // "Windows version X does not support the packaged version"
  bool wsl2_needed = false;                   // "This operation is only supported by WSL2."
  bool sparse_vhd_disabled = false;      // "Sparse VHD support is currently disabled due to potential data corruption."
  bool mirrored_fallback = false;        // "Mirrored networking mode is not supported ... Falling back to NAT"
  bool policy_override = false;          // "The .wslconfig setting '{}' is disabled by the computer policy."
  std::vector<std::string> error_codes;  // "Wsl/Service/...", "WSL_E_...", "0x80370102"

  // wsl.exe did not do what was asked because it is too old (usage text or a rejected option).
  bool cli_too_old() const { return usage_text || invalid_option; }
  bool any() const;
};

WslErrorFlags detect_wsl_errors(std::string_view text);

// {"usage_text": true, "rejected_options": ["--status"], ...}: only the flags that are set.
nlohmann::json to_json(const WslErrorFlags& flags);

// "Microsoft Windows [Version 10.0.18362.207]" (any language) or "Windows version 10.0.19045.2251
// does not support ...": the first Windows build string "10.0.N(.N)" on a line naming Windows.
std::string find_windows_version(std::string_view text);

}  // namespace tfwsl::parse
