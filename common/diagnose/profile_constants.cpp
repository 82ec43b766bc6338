#include "common/diagnose/profile_constants.hpp"

#include <fmt/format.h>

#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::diagnose {
namespace {

constexpr const char* k_native_profile = "legacy-native-tf-2.10";

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : " ") + w;
  return out;
}

Result<std::string> required(const Setting<std::string>& setting, const char* key, const Profile& profile) {
  if (setting.has_value() && !setting->empty()) return *setting;
  return make_error(ErrorCode::parse, fmt::format("profile '{}' sets no {}: the explain fixes print it",
                                                  profile.name.value_or("?"), key));
}

}  // namespace

Result<std::map<std::string, std::string>> profile_constants(const Profile& wsl, const Profile& native,
                                                             const CompatDb& compat) {
  std::map<std::string, std::string> out;
  for (const auto& [key, setting, profile] :
       {std::tuple{"distro", &wsl.distro, &wsl}, std::tuple{"python", &wsl.python_version, &wsl},
        std::tuple{"venv", &wsl.python_venv, &wsl}, std::tuple{"cuda_toolkit", &wsl.cuda_toolkit, &wsl},
        std::tuple{"native_cuda", &native.cuda_toolkit, &native},
        std::tuple{"native_cudnn", &native.cuda_cudnn, &native},
        std::tuple{"native_python", &native.python_version, &native}}) {
    auto value = required(*setting, key, *profile);
    if (!value) return make_error(value.error().code, value.error().message);
    out[key] = *value;
  }
  out["tf_requirement"] = tensorflow_pip_requirement(wsl);
  out["native_tf_requirement"] = tensorflow_pip_requirement(native);
  out["apt_packages"] = joined(wsl.apt_packages.value_or({}));
  // The TensorFlow series the default profile installs and the Python it supports.
  auto spec = VersionSpec::parse(wsl.tensorflow_version.value_or(""));
  if (!spec) return make_error(ErrorCode::parse, "the default profile's tensorflow.version: " + spec.error().message);
  const auto releases = compat.allowed_tf_releases(*spec);
  if (releases.empty())
    return make_error(ErrorCode::parse, "the default profile's TensorFlow is not in the compatibility data");
  out["tf_series"] = releases.front()->release.to_string();
  out["tf_python_range"] = releases.front()->python.to_string();
  return out;
}

Result<std::map<std::string, std::string>> builtin_profile_constants(const CompatDb& compat) {
  ProfileLoadOptions options;
  options.compat = &compat;
  auto wsl = load_valid_profile(default_profile_name(), options);
  if (!wsl) return make_error(wsl.error().code, wsl.error().message);
  auto native = load_valid_profile(k_native_profile, options);
  if (!native) return make_error(native.error().code, native.error().message);
  return profile_constants(*wsl, *native, compat);
}

}  // namespace tfwsl::diagnose
