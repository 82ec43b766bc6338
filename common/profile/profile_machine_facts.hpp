#pragma once
// What `profile diff` and `profile export` know about a machine: the host side (the distro the
// facts came from, the NVIDIA driver, .wslconfig as read) and the distro side (the agent's
// GET /v1/facts). Plain data the CLI gathers as `tfwsl doctor` does; the comparison and the export
// are pure functions of it (profile_drift.hpp, profile_export.hpp), so tests give them any machine.

#include <optional>
#include <string>

#include "common/agent_api/linux_facts.hpp"

namespace tfwsl {

struct ProfileHostFacts {
  std::string distro;          // the WSL distribution the Linux facts are from; empty when not through WSL
  std::string distro_why;      // why there is none ("not Windows: no WSL distribution")
  std::string windows_driver;  // the NVIDIA driver as Windows reports it (nvidia-smi.exe, registry); "" when unknown
  std::string wslconfig_path;  // the .wslconfig WSL reads; empty when there is none (not Windows)
  std::optional<std::string> wslconfig_bytes;  // its bytes; nothing when the file is absent
  std::string wslconfig_error;                 // it exists but could not be read
};

struct ProfileMachineFacts {
  ProfileHostFacts host;
  std::optional<agent_api::LinuxFacts> linux;  // nothing when the agent could not be reached
  std::string linux_error;                     // why not
};

// The driver WSL's GPU uses: Windows' own, else what NVML reports inside the distro (the native
// Linux build, or a host whose driver could not be read). Empty when neither is known.
std::string machine_gpu_driver(const ProfileMachineFacts& machine, std::string* source = nullptr);

// "8.9" from cudnnGetVersion()'s 8906; "9.19" from 91900 (cuDNN 9 changed the encoding).
std::string cudnn_series(long number);

}  // namespace tfwsl
