#pragma once
// What "ok" means for the distro's facts, built from one profile (common/profile) and the
// compatibility data (common/compat), with the knowledge base's TF-log explanation
// (common/diagnose) plugged in. No TensorFlow, CUDA or cuDNN version is written here: each comes
// from the profile or from the compatibility data of the profile's TensorFlow release.

#include <cstdint>
#include <functional>
#include <string>

#include "common/core/error.hpp"
#include "common/profile/profile.hpp"

namespace tfwsl::judge {

struct CheckPolicy {
  std::string profile_name;                // "profile tf-2.15-cuda-12.2", for the texts
  int min_cc_major = 0, min_cc_minor = 0;  // lowest compute capability the profile's TF wheels run on
  std::string python_min, python_max;      // the profile's TF release's Python range; empty: no bound
  std::string cuda_toolkit;                // expected toolkit "12.2"; empty: any (or none)
  std::string
      windows_driver_floor;  // the Windows driver that runs that toolkit's major ("528.33 for CUDA 12"); empty: unknown
  std::string cudnn;         // expected cuDNN series "8.9"; empty: any
  std::string venv;          // the profile's venv "~/.venvs/tf-2.15"; empty: none named
  std::string tensorflow_version;      // the profile's specifier "2.15.*"; empty: any
  std::string tensorflow_requirement;  // what pip installs: "tensorflow[and-cuda]==2.15.*"; empty: none named
  std::string profile_id;              // what `--profile` takes: "tf-2.15-cuda-12.2" or the file
  std::string distro;                  // the profile's distro "Ubuntu-22.04"; empty: none named
  // GPUs from this compute capability up get no kernels from the stock wheels (12.0, compat.yaml);
  // 0: no such limit known. `container` is NVIDIA's TensorFlow container that runs on them.
  int stock_fail_cc_major = 0, stock_fail_cc_minor = 0;
  // route: container: TensorFlow, CUDA and Python are the image's (no venv checks, no stock-wheel
  // verdict on the GPU: the image is the way such a GPU runs).
  bool container_route = false;
  std::string container;
  std::uint64_t disk_warn_bytes = 20ull << 30;
  std::uint64_t disk_fail_bytes = 5ull << 30;
  // Explains a TensorFlow log (the knowledge base's signature matcher): one line saying why the
  // GPU is not used. Empty: the check quotes the most telling raw line instead.
  std::function<std::string(const std::string& log)> explain_tf_log;
};

// A loaded profile's policy; `label` names it in the texts ("tf-2.15-cuda-12.2", "team.yaml").
Result<CheckPolicy> check_policy_for(const Profile& profile, const std::string& label);

// name_or_path: a built-in profile name or a YAML file; empty: the default profile
// (default_profile_name()). Errors name the profile and the problem.
Result<CheckPolicy> check_policy_for_profile(const std::string& name_or_path);

// The signature base's verdict on a TensorFlow log: the error findings' summaries, joined.
std::string explain_tf_log_with_signatures(const std::string& log);

}  // namespace tfwsl::judge
