#pragma once
// What tfwsl knows about the Windows host, as plain data. Gathered by gather_host_facts
// (host_probe.hpp) through two ports, Registry and SystemInfo, whose Windows implementations live
// in win/platform/*_windows.cpp; judged by host_checks.hpp. Anything unreadable stays empty with
// the reason in `notes`, never a guess.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace tfwsl::host {

enum class GpuDriverModel { unknown, wddm, tcc, mcdm };
const char* to_string(GpuDriverModel model);

struct HostGpu {
  std::string name;
  std::string driver_version;          // NVIDIA's numbering ("537.58"), whatever the source
  std::string windows_driver_version;  // "31.0.15.3758" when read from the registry
  GpuDriverModel driver_model = GpuDriverModel::unknown;
  std::optional<std::uint64_t> memory_mib;
  std::string source;  // "nvidia-smi", "registry (display class)", "registry (uninstall key)"
};

// The DWORD values of HKLM\Software\Policies\WSL that WSL's ADMX defines (microsoft/WSL
// intune/WSL.admx @ 3e27a6a5): the Allow*UserSetting ones, set to 0, make WSL ignore that .wslconfig
// setting; DefaultNetworkingMode (0 none, 1 NAT, 3 mirrored, 4 virtioproxy) is the mode it uses then.
inline constexpr const char* k_wsl_policy_values[] = {"AllowWSL",
                                                      "AllowWSL1",
                                                      "AllowKernelUserSetting",
                                                      "AllowKernelCommandLineUserSetting",
                                                      "AllowNestedVirtualization",
                                                      "AllowKernelDebugUserSetting",
                                                      "AllowNetworkingModeUserSetting",
                                                      "AllowFirewallUserSetting",
                                                      "DefaultNetworkingMode",
                                                      "AllowSystemDistroUserSetting"};

struct HostFacts {
  bool is_windows = false;                      // false on the native Linux build: host checks skip
  std::optional<int> windows_build;             // 22631
  std::optional<int> windows_ubr;               // 2861 (update build revision)
  std::string windows_product;                  // "Windows 11 Pro" when the registry says
  std::optional<std::uint64_t> ram_bytes;       // physical memory
  std::optional<bool> firmware_virtualization;  // PF_VIRT_FIRMWARE_ENABLED; nothing when unknown
  std::optional<bool> vm_platform;              // Virtual Machine Platform / hypervisor services present
  std::vector<HostGpu> gpus;                    // NVIDIA GPUs only
  std::optional<std::uint32_t> tdr_delay_s;     // GraphicsDrivers\TdrDelay; nothing: Windows' default 2 s
  std::optional<std::uint32_t> tdr_level;       // GraphicsDrivers\TdrLevel (0 disables TDR)
  std::optional<bool> fast_startup;             // Session Manager\Power\HiberbootEnabled
  std::optional<int> wsl_default_version;       // HKCU\...\Lxss\DefaultVersion
  // HKLM\Software\Policies\WSL, the values WSL's ADMX defines that are set ("AllowNetworkingModeUserSetting" = 0).
  std::map<std::string, std::uint32_t> wsl_policies;
  std::vector<std::string> notes;  // what could not be read, and why
};

}  // namespace tfwsl::host
