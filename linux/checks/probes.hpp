#pragma once
// The probes, one per file (wsl_probe.cpp, gpu_probe.cpp, ...). None needs a GPU; none fails:
// each returns facts with the reason something is absent.

#include <stdexcept>

#include "linux/checks/linux_facts.hpp"
#include "linux/checks/probe_environment.hpp"

namespace tfwsl::linux_checks {

// Thrown by a probe whose work was stopped at its limit (a driver call that hung in the library
// child): gather_facts lists the probe in facts.timed_out and keeps none of its part.
class ProbeTimedOut : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

WslFacts probe_wsl(const ProbeEnvironment& env);
// libcuda (cuInit, versions, devices) and NVML (driver version, names), both in the library child
// (library_probe_child.hpp), with nvidia-smi as fallback.
agent_api::GpuResponse probe_gpu(const ProbeEnvironment& env);
DriverFacts probe_linux_driver(const ProbeEnvironment& env);
StackFacts probe_cuda_stack(const ProbeEnvironment& env);  // toolkits, nvcc/ptxas, cuDNN (library child), Python
TfFacts probe_tensorflow(const ProbeEnvironment& env);
SystemFacts probe_system(const ProbeEnvironment& env);

// Mount table lookup shared by data.location and /v1/paths/resolve: the longest mount point of
// root/proc/mounts that contains path, with its type.
struct MountEntry {
  std::string mount_point;
  std::string fs_type;
};
std::vector<MountEntry> read_mounts(const ProbeEnvironment& env);
MountEntry mount_of(const std::vector<MountEntry>& mounts, const std::string& path);
bool is_slow_fs(const std::string& fs_type);  // drvfs, 9p, fuse.* from Windows shares

// The script the TF probe runs with the configured interpreter (stdout: one JSON object).
const char* tensorflow_probe_script();

}  // namespace tfwsl::linux_checks
