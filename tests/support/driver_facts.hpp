#pragma once
// The two sides of a driver comparison, for the doctor's tests: the Windows host with one NVIDIA GPU
// on driver `version` (as nvidia-smi.exe reports it) and NVML's answer inside the distro.

#include <string>

#include "common/agent_api/api_types.hpp"
#include "win/host/host_facts.hpp"

namespace tfwsl::test {

inline host::HostFacts windows_driver(const std::string& version) {
  host::HostFacts h;
  h.is_windows = true;
  host::HostGpu g;
  g.name = "RTX";
  g.driver_version = version;
  g.source = "nvidia-smi";
  h.gpus.push_back(g);
  return h;
}

inline agent_api::GpuResponse nvml(const std::string& version) {
  agent_api::GpuResponse g;
  g.nvml_driver_version = version;
  g.nvml_source = "nvml";
  return g;
}

}  // namespace tfwsl::test
