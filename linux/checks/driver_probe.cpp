#include <sstream>
#include <system_error>

#include "linux/checks/file_text.hpp"
#include "linux/checks/probes.hpp"

namespace tfwsl::linux_checks {

namespace {

// Package name patterns that mean "a Linux NVIDIA driver (or a meta-package that pulls one) is
// installed inside WSL": it shadows the WSL libcuda stub (docs.nvidia.com/cuda/wsl-user-guide: do not install a Linux
// display driver in WSL).
bool is_driver_package(const std::string& name) {
  auto starts = [&](const char* p) { return name.rfind(p, 0) == 0; };
  if (starts("nvidia-driver-") || starts("nvidia-utils-") || starts("libnvidia-compute-") || starts("cuda-drivers"))
    return true;
  if (name == "cuda") return true;
  // cuda-12-2 (the full meta-package with the driver), not cuda-toolkit-12-2 or cuda-nvcc-12-2.
  if (starts("cuda-12-") || starts("cuda-11-")) {
    auto rest = name.substr(8);
    return !rest.empty() && rest.find_first_not_of("0123456789") == std::string::npos;
  }
  return false;
}

}  // namespace

DriverFacts probe_linux_driver(const ProbeEnvironment& env) {
  DriverFacts f;
  ProcessRequest request;
  request.argv = {"dpkg-query", "-W", "-f=${Package}\t${db:Status-Abbrev}\n"};
  request.timeout = env.probe_timeout;
  auto outcome = env.runner->run(request);
  if (!outcome) {
    f.dpkg_error = outcome.error().message;
  } else if (outcome->timed_out) {
    f.dpkg_error = "dpkg-query timed out";
  } else {
    std::istringstream in(outcome->out);
    std::string line;
    while (std::getline(in, line)) {
      auto tab = line.find('\t');
      if (tab == std::string::npos) continue;
      auto name = line.substr(0, tab);
      auto status = line.substr(tab + 1);
      if (status.rfind("ii", 0) == 0 && is_driver_package(name)) f.packages.push_back(name);
    }
  }
  std::error_code ec;
  for (const char* dir : {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"}) {
    auto real_dir = env.at(dir);
    if (!std::filesystem::is_directory(real_dir, ec)) continue;
    for (const auto& entry : std::filesystem::directory_iterator(real_dir, ec)) {
      auto name = entry.path().filename().string();
      if (name.rfind("libcuda.so", 0) == 0) f.libcuda_copies.push_back(std::string(dir) + "/" + name);
    }
  }
  return f;
}

}  // namespace tfwsl::linux_checks
