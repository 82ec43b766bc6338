#include "common/judge/check_dependencies.hpp"

namespace tfwsl::judge {

// Each entry says why: what the check reads, and whose fault makes it fail or not run.
const DependencyTable& check_dependencies() {
  static const DependencyTable table{
      // Windows facts (registry, nvidia-smi.exe, wsl.exe) exist only on Windows.
      {"host.windows-build", {k_platform_windows}},
      {"host.virtualization", {k_platform_windows}},
      {"host.nvidia-driver", {k_platform_windows}},
      {"host.gpu-driver-model", {k_platform_windows, "host.nvidia-driver"}},  // the model of the driver's GPU
      {"host.tdr", {k_platform_windows}},
      {"host.fast-startup", {k_platform_windows}},
      // wsl.exe refuses to list anything with virtualization off.
      {"wsl.installed", {k_platform_windows, "host.virtualization"}},
      {"wsl.version", {k_platform_windows, "wsl.installed"}},
      {"wsl.default-version", {k_platform_windows, "wsl.installed"}},
      {"wsl.distro", {k_platform_windows, "wsl.installed"}},
      // .wslconfig is read from the user's profile folder on either platform.
      {"wslconfig.parse", {}},
      {"wslconfig.memory", {}},
      // A policy or a setting WSL ignores is read from .wslconfig and the registry alone.
      {"wslconfig.overrides", {}},
      // The agent runs in the chosen distro; forwarding is tried once it listens.
      {"wsl.agent", {"wsl.distro"}},
      {"wsl.localhost-forwarding", {"wsl.agent"}},
      // Everything below is the agent's observation of the distro, so it needs the agent. /dev/dxg
      // and /usr/lib/wsl/lib (libcuda, the loader path) exist only in a WSL 2 distro, and the
      // latter comes from the Windows NVIDIA driver.
      // gpuSupport=false (wslconfig.overrides) takes /dev/dxg away.
      {"linux.dxg", {"wsl.agent", "wsl.distro", "wslconfig.overrides"}},
      {"linux.libcuda", {"wsl.agent", "wsl.distro", "host.nvidia-driver"}},
      {"linux.no-linux-driver", {"wsl.agent"}},
      {"linux.ldconfig", {"wsl.agent", "wsl.distro", "host.nvidia-driver"}},
      // CUDA sees a GPU through /dev/dxg and the stub libcuda, not past a Linux driver, and not in TCC mode.
      {"gpu.visible", {"wsl.agent", "linux.dxg", "linux.libcuda", "linux.no-linux-driver", "linux.ldconfig",
                       "host.gpu-driver-model"}},
      {"gpu.compute-capability", {"gpu.visible"}},
      // Windows' driver version vs NVML's, which lives in /usr/lib/wsl/lib with libcuda.
      {"gpu.driver-parity", {"wsl.agent", "host.nvidia-driver", "linux.libcuda"}},
      {"cuda.toolkit", {"wsl.agent"}},
      {"cudnn", {"wsl.agent"}},
      {"python.version", {"wsl.agent"}},
      {"tf.installed", {"wsl.agent", "python.version"}},
      {"tf.build", {"tf.installed"}},
      {"tf.gpu", {"tf.installed", "tf.build", "gpu.visible"}},
      {"mem.effective", {"wsl.agent"}},
      {"disk.free", {"wsl.agent"}},
      {"data.location", {"wsl.agent"}},
  };
  return table;
}

Precondition platform_windows(bool is_windows) {
  return {k_platform_windows, is_windows, "not Windows: the host and WSL checks do not apply"};
}

}  // namespace tfwsl::judge
