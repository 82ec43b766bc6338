#include "win/doctor/host_policy.hpp"

#include "common/profile/profile_loader.hpp"
#include "common/version/version.hpp"

namespace tfwsl::doctor {

Result<host::HostPolicy> host_policy_for(const Profile& profile, const std::string& profile_label,
                                         const CompatDb& compat) {
  host::HostPolicy policy;
  policy.profile_name = profile_label;
  policy.min_windows_build = compat.wsl_gpu_min_windows_build();
  const std::string toolkit = profile.cuda_toolkit.value_or("");
  if (toolkit.empty()) return policy;
  auto version = Version::parse(toolkit);
  if (!version) {
    return make_error(ErrorCode::invalid_input,
                      "the profile " + profile_label + " names CUDA toolkit '" + toolkit +
                          "', which is not a version: set cuda.toolkit to a release such as \"12.2\"");
  }
  if (auto floor = compat.minor_version_floor(version->major())) {
    policy.min_driver = floor->windows.to_string();
    return policy;
  }
  TFWSL_TRY(minimum, compat.driver_minimum_for_cuda(*version));
  if (minimum.windows) policy.min_driver = minimum.windows->to_string();
  return policy;
}

Result<host::HostPolicy> host_policy_for_profile(const std::string& name_or_path, const CompatDb& compat) {
  ProfileLoadOptions options;
  options.compat = &compat;
  TFWSL_TRY(profile, load_valid_profile(name_or_path, options));
  return host_policy_for(profile, name_or_path, compat);
}

}  // namespace tfwsl::doctor
