#pragma once
// The Linux-side checks: run the probes (in parallel, each with a time limit) and turn the facts
// into the check report of common/check. Used by `tfwsl-agent check`, the agent's /v1/checks, and
// `tfwsl doctor` on a native Linux build (it links tfwsl_linux_checks in-process).
//
// Check ids (docs/doctor.md lists them): linux.dxg, linux.libcuda, linux.no-linux-driver, linux.ldconfig,
// gpu.visible, gpu.compute-capability, cuda.toolkit, cudnn, python.version, tf.installed, tf.build,
// tf.gpu, mem.effective, disk.free, data.location.

#include <functional>
#include <string>

#include "common/check/check.hpp"
#include "linux/checks/linux_facts.hpp"
#include "linux/checks/probe_environment.hpp"

namespace tfwsl::linux_checks {

// What "ok" means. Always filled from a profile and the compatibility data
// (check_policy_for_profile); a default-constructed policy sets no bounds at all.
struct CheckPolicy {
  std::string profile_name;
  int min_cc_major = 0, min_cc_minor = 0;   // lowest compute capability the profile's TF wheels run on
  std::string python_min, python_max;       // the profile's TF release's Python range; empty: no bound
  std::string cuda_toolkit;                // expected toolkit "12.2"; empty: any (or none)
  std::uint64_t disk_warn_bytes = 20ull << 30;
  std::uint64_t disk_fail_bytes = 5ull << 30;
  // Explains a TensorFlow log (the knowledge base's signature matcher): one line saying why the
  // GPU is not used. Empty: the check quotes the most telling raw lines instead.
  std::function<std::string(const std::string& log)> explain_tf_log;
};

// Runs every probe in parallel; a probe past its limit is reported in facts.timed_out and its part
// stays at "absent".
LinuxFacts gather_facts(const ProbeEnvironment& env);

// Facts -> verdicts. Pure.
Report assess(const LinuxFacts& facts, const CheckPolicy& policy);

// The variable naming a probe root: a folder holding another machine's files (dev/dxg,
// usr/lib/wsl/lib, proc/..., etc/...) that the agent then observes instead of this one's.
inline constexpr const char* k_probe_root_env = "TFWSL_PROBE_ROOT";

// A production environment: root "/", SystemProcessRunner, DlopenLoader; under TFWSL_PROBE_ROOT
// when set: that root, a RootedLoader on it, and its disk.
ProbeEnvironment system_probe_environment();

}  // namespace tfwsl::linux_checks
