#pragma once
// Checks a merged profile against the compatibility data: the TensorFlow release it allows must
// support its Python (TF 2.15 on Ubuntu 24.04's Python 3.12 is an error), its CUDA and cuDNN must
// be the ones that release is built for (TF 2.15 with cuDNN 9 is an error), `and-cuda` needs
// TF >= 2.14, no Linux NVIDIA driver packages inside WSL, native Windows only up to TF 2.10.

#include <span>
#include <string_view>
#include <vector>

#include "common/compat/compat_db.hpp"
#include "common/profile/profile.hpp"
#include "common/profile/profile_issue.hpp"

namespace tfwsl {

// `cuda`, `cuda-12-x`, `cuda-drivers`, `nvidia-driver-*`...: apt packages that put a Linux NVIDIA
// driver inside WSL (an optional "=version" suffix included). The profile validator and the
// provisioning plan both refuse them through this one rule.
bool is_linux_driver_package(std::string_view package);

// `reported_keys`: keys the caller has already reported in its own words (a file's value the loader
// refused; a key `profile export` says the machine does not show): a required one of them is not
// reported again as missing.
std::vector<ProfileIssue> validate_profile(const Profile& profile, const CompatDb& db,
                                           std::span<const std::string_view> reported_keys = {});

// The Python the profile's TensorFlow runs on: python.version, else the distro's python3.
std::optional<Version> effective_python(const Profile& profile, const CompatDb& db);

// The TensorFlow series pip would install for this profile: the newest allowed release that
// supports its Python (the newest allowed one when the Python is unknown), or nothing.
const TfRelease* target_tf_release(const Profile& profile, const CompatDb& db);

}  // namespace tfwsl
