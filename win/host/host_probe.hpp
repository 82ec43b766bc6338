#pragma once
// Gathers HostFacts: the Windows build (RtlGetVersion via SystemInfo, since GetVersionEx lies without
// a manifest; UBR from the registry), RAM, virtualization, the NVIDIA driver through nvidia-smi.exe
// with registry fallbacks, TDR, Fast Startup and WSL's default version. Platform-neutral: the
// Windows-only reads sit behind Registry and SystemInfo.

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/process/process_runner.hpp"
#include "win/host/host_facts.hpp"
#include "win/host/registry.hpp"

namespace tfwsl::host {

// What the OS says about itself (win/platform/system_info_windows.cpp).
struct SystemInfo {
  bool is_windows = false;
  std::optional<int> build;                     // RtlGetVersion's dwBuildNumber
  std::optional<std::uint64_t> ram_bytes;       // GlobalMemoryStatusEx / installed memory
  std::optional<bool> firmware_virtualization;  // IsProcessorFeaturePresent(PF_VIRT_FIRMWARE_ENABLED)
};

// The environment variable naming another nvidia-smi.exe (tests point it at a stand-in).
inline constexpr const char* k_nvidia_smi_env = "TFWSL_NVIDIA_SMI";

// Where nvidia-smi.exe is looked for, in order: TFWSL_NVIDIA_SMI, System32, the NVSMI folder.
std::vector<std::string> nvidia_smi_candidates(
    const std::function<std::optional<std::string>(const std::string&)>& getenv);

// The argv of the query (one CSV line per GPU, no header).
std::vector<std::string> nvidia_smi_query_argv(const std::string& exe);

// "NVIDIA GeForce RTX 3080, 537.58, WDDM, 10240 MiB" lines -> GPUs. Lines that do not have four
// fields are skipped; "[N/A]" fields stay empty.
std::vector<HostGpu> parse_nvidia_smi_query(const std::string& csv);

struct HostProbeSettings {
  std::vector<std::string> nvidia_smi;  // candidates, see nvidia_smi_candidates
  std::chrono::milliseconds timeout{std::chrono::seconds(15)};
};

HostFacts gather_host_facts(const SystemInfo& system, const Registry& registry, ProcessRunner& runner,
                            const HostProbeSettings& settings);

// The WSL policies set under HKLM\Software\Policies\WSL (k_wsl_policy_values), through the port:
// the real registry on Windows, a MapRegistry in tests.
std::map<std::string, std::uint32_t> read_wsl_policies(const Registry& registry);

}  // namespace tfwsl::host
