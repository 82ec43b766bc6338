#pragma once
// Everything a probe reads the machine through. Tests build a fake WSL machine (a TempDir holding
// dev/dxg, usr/lib/wsl/lib, etc/ld.so.conf.d, proc/meminfo ...) and a RecordingProcessRunner that
// also answers for the library child; production uses "/", SystemProcessRunner and the agent itself.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/process/process_runner.hpp"

namespace tfwsl::linux_checks {

struct ProbeEnvironment {
  std::filesystem::path root = "/";  // prefix for /dev, /usr, /etc, /proc, /sys paths
  std::shared_ptr<ProcessRunner> runner;
  // The program that answers `probe-libraries PART --root ROOT` (library_probe_child.hpp): the
  // agent itself, so that libcuda, NVML and cuDNN are loaded in a child that can be killed.
  std::filesystem::path library_prober = "/proc/self/exe";
  std::string python = "python3";         // the interpreter for the Python and TensorFlow probes
  std::filesystem::path disk_path = "/";  // statvfs target for disk.free (the distro's root)
  std::vector<std::string> data_paths;    // projects/datasets to test for slow drvfs/9p mounts
  std::chrono::milliseconds probe_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds tf_timeout{std::chrono::seconds(120)};  // importing TF and a first CUDA op are slow

  // root / "dev/dxg" for "/dev/dxg".
  std::filesystem::path at(const std::string& absolute) const;
};

}  // namespace tfwsl::linux_checks
