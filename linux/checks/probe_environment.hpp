#pragma once
// Everything a probe reads the machine through. Tests build a fake WSL machine (a TempDir holding
// dev/dxg, usr/lib/wsl/lib, etc/ld.so.conf.d, proc/meminfo ...), a RecordingProcessRunner and a
// fake LibraryLoader; production uses "/", SystemProcessRunner and DlopenLoader.

#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "common/process/process_runner.hpp"
#include "linux/checks/library_loader.hpp"

namespace tfwsl::linux_checks {

struct ProbeEnvironment {
  std::filesystem::path root = "/";   // prefix for /dev, /usr, /etc, /proc, /sys paths
  // Shared: a probe that ran past its limit keeps running on its own thread and must not outlive them.
  std::shared_ptr<ProcessRunner> runner;
  std::shared_ptr<LibraryLoader> loader;
  std::string python = "python3";     // the interpreter for the Python and TensorFlow probes
  std::filesystem::path disk_path = "/";  // statvfs target for disk.free (the distro's root)
  std::vector<std::string> data_paths;    // projects/datasets to test for slow drvfs/9p mounts
  std::chrono::milliseconds probe_timeout{std::chrono::seconds(10)};
  std::chrono::milliseconds tf_timeout{std::chrono::seconds(120)};  // importing TF and a first CUDA op are slow

  // root / "dev/dxg" for "/dev/dxg".
  std::filesystem::path at(const std::string& absolute) const;
};

}  // namespace tfwsl::linux_checks
