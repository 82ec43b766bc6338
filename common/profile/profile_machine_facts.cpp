#include "common/profile/profile_machine_facts.hpp"

namespace tfwsl {

std::string machine_gpu_driver(const ProfileMachineFacts& machine, std::string* source) {
  if (!machine.host.windows_driver.empty()) {
    if (source) *source = "the Windows driver";
    return machine.host.windows_driver;
  }
  if (machine.linux && !machine.linux->gpu.nvml_driver_version.empty()) {
    if (source) *source = "NVML in the distro";
    return machine.linux->gpu.nvml_driver_version;
  }
  return {};
}

std::string cudnn_series(long number) {
  // cuDNN 8: major*1000 + minor*100 + patch (8906); cuDNN 9: major*10000 + minor*100 + patch (91900).
  const long major = number >= 90000 ? number / 10000 : number / 1000;
  const long minor = number >= 90000 ? (number % 10000) / 100 : (number % 1000) / 100;
  return std::to_string(major) + "." + std::to_string(minor);
}

}  // namespace tfwsl
