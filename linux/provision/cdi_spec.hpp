#pragma once
// The CDI spec nvidia-ctk wrote for the GPU, read as Podman reads it (kind, devices, the host paths
// it mounts), and whether it still describes the driver WSL shares now. A Windows driver update
// installs the driver into a new driver-store folder (/usr/lib/wsl/drivers/nv*.inf_amd64_HASH) and
// removes the old one: a spec naming the old folder makes every `--device nvidia.com/gpu=all` run
// fail to mount, while nvidia-smi in WSL (/usr/lib/wsl/lib) still works (microsoft/WSL#11589).

#include <filesystem>
#include <string>
#include <vector>

namespace tfwsl::provision {

enum class CdiSpecVerdict { missing, unreadable, stale, current };
const char* to_string(CdiSpecVerdict verdict);  // "missing", "unreadable", "stale", "current"

struct CdiSpecState {
  CdiSpecVerdict verdict = CdiSpecVerdict::missing;
  std::string message;                     // for people: what was found
  std::string driver_store;                // NVIDIA's driver-store folder now ("" when WSL shares none)
  std::vector<std::string> spec_stores;    // the driver-store folders the spec names
  std::vector<std::string> missing_paths;  // host paths the spec mounts that are gone
};

// `spec` is a distro path (/etc/cdi/nvidia.yaml) read under `root`; the spec must define
// nvidia.com/gpu=all. Bounded: a spec over 1 MiB is unreadable.
CdiSpecState read_cdi_spec_state(const std::filesystem::path& root, const std::string& spec);

// NVIDIA's driver-store folder WSL shares now: the one of /usr/lib/wsl/drivers/* that holds
// libcuda.so.1.1 (other vendors' folders hold none), as nvidia-ctk finds it; "" when there is none.
std::string current_driver_store(const std::filesystem::path& root);

}  // namespace tfwsl::provision
