#pragma once
// Host facts -> check verdicts: the checks of CheckSource::host in the check table
// (common/check/check_table.hpp), in its order. Pure functions: every verdict is unit-tested with
// made-up facts.

#include <string>
#include <vector>

#include "common/check/check.hpp"
#include "win/host/host_facts.hpp"

namespace tfwsl::host {

// What "ok" means on the host; the doctor fills it from the profile and the compatibility data
// (win/doctor/host_policy.hpp).
struct HostPolicy {
  std::string profile_name;
  int min_windows_build = 0;  // GPU paravirtualization in WSL (compat.yaml: wsl_gpu_min_windows_build)
  std::string min_driver;     // the oldest Windows driver for the profile's CUDA; empty: no floor
};

std::vector<CheckResult> assess_host(const HostFacts& facts, const HostPolicy& policy);

CheckResult check_windows_build(const HostFacts& facts, const HostPolicy& policy);
CheckResult check_virtualization(const HostFacts& facts);
CheckResult check_nvidia_driver(const HostFacts& facts, const HostPolicy& policy);
CheckResult check_gpu_driver_model(const HostFacts& facts);
CheckResult check_tdr(const HostFacts& facts);
CheckResult check_fast_startup(const HostFacts& facts);

}  // namespace tfwsl::host
