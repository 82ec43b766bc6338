#include "common/judge/check_policy.hpp"

#include "common/compat/compat_db.hpp"
#include "common/diagnose/explain_engine.hpp"
#include "common/profile/profile_loader.hpp"
#include "common/profile/profile_source.hpp"
#include "common/version/version_spec.hpp"

namespace tfwsl::judge {

Result<CheckPolicy> check_policy_for(const Profile& profile, const std::string& label) {
  CheckPolicy policy;
  policy.profile_name = "profile " + label;
  policy.profile_id = label;
  policy.distro = profile.distro.value_or("");
  policy.container_route = profile.route.value_or(ProfileRoute::wsl) == ProfileRoute::container;
  if (const Version cc = builtin_compat_db().stock_wheels_fail_from_compute_capability();
      !cc.release.empty() && !policy.container_route) {
    policy.stock_fail_cc_major = cc.major();
    policy.stock_fail_cc_minor = cc.segment(1);
  }
  policy.container = builtin_compat_db().nvidia_tensorflow_container();
  policy.cuda_toolkit = profile.cuda_toolkit.value_or("");
  policy.venv = profile.python_venv.value_or("");
  if (auto toolkit = Version::parse(policy.cuda_toolkit))
    if (auto floor = builtin_compat_db().minor_version_floor(toolkit->major()))
      policy.windows_driver_floor = floor->windows.to_string() + " for CUDA " + std::to_string(toolkit->major());
  policy.explain_tf_log = explain_tf_log_with_signatures;
  auto spec_text = profile.tensorflow_version.value_or("");
  policy.tensorflow_version = spec_text;
  if (!spec_text.empty()) policy.tensorflow_requirement = tensorflow_pip_requirement(profile);
  policy.cudnn = profile.cuda_cudnn.value_or("");
  if (spec_text.empty()) return policy;
  auto spec = VersionSpec::parse(spec_text);
  if (!spec)
    return with_context(Result<CheckPolicy>(tl::unexpected(spec.error())), "reading tensorflow.version of " + label);
  // The newest TF release the profile's specifier allows decides the Python range, the minimum
  // compute capability and (when the profile names none) the cuDNN series.
  auto releases = builtin_compat_db().allowed_tf_releases(*spec);
  if (releases.empty()) return policy;
  const TfRelease* newest = releases.front();
  for (const auto* r : releases)
    if (newest->release < r->release) newest = r;
  policy.python_min = newest->python.min.to_string();
  policy.python_max = newest->python.max.to_string();
  policy.min_cc_major = newest->min_compute_capability.major();
  policy.min_cc_minor = newest->min_compute_capability.segment(1);
  if (policy.cudnn.empty()) policy.cudnn = newest->cudnn.to_string();
  return policy;
}

Result<CheckPolicy> check_policy_for_profile(const std::string& requested) {
  const std::string name_or_path = requested.empty() ? default_profile_name() : requested;
  TFWSL_TRY(profile, load_valid_profile(name_or_path));
  return check_policy_for(profile, name_or_path);
}

std::string explain_tf_log_with_signatures(const std::string& log) {
  const auto& base = diagnose::builtin_signature_base();
  if (!base || log.empty()) return {};
  auto explanation = diagnose::explain(log, *base);
  std::string out;
  for (const auto& f : explanation.findings)
    if (f.severity == diagnose::Severity::error) out += (out.empty() ? "" : "; ") + f.summary;
  return out;
}

}  // namespace tfwsl::judge
