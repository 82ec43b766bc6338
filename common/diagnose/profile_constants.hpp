#pragma once
// The names a fix may print, taken from the profile data rather than written into the signatures:
// the default profile (profiles/tf-2.15-cuda-12.2.yaml, the one `tfwsl doctor` judges by) gives the
// WSL route's distro, Python, venv, TensorFlow requirement and CUDA toolkit; the native-Windows
// profile (profiles/legacy-native-tf-2.10.yaml) the last native route's TensorFlow, CUDA and cuDNN;
// the compatibility data the Python range of the default TensorFlow series. `${distro}` and the
// like in profiles/signatures.yaml print them.

#include <map>
#include <string>

#include "common/compat/compat_db.hpp"
#include "common/core/error.hpp"
#include "common/profile/profile.hpp"

namespace tfwsl::diagnose {

// distro, python, venv, tf_requirement ("tensorflow[and-cuda]==2.15.*"), tf_series ("2.15"),
// tf_python_range ("3.9-3.11"), cuda_toolkit, apt_packages; native_tf_requirement ("tensorflow<2.11"),
// native_cuda, native_cudnn, native_python. An error names the setting that is missing.
Result<std::map<std::string, std::string>> profile_constants(const Profile& wsl, const Profile& native,
                                                             const CompatDb& compat);

// The same for the built-in profiles (the default one and legacy-native-tf-2.10).
Result<std::map<std::string, std::string>> builtin_profile_constants(const CompatDb& compat);

}  // namespace tfwsl::diagnose
