#pragma once
// Builds the CheckPolicy from a profile (common/profile) and the compatibility data
// (common/compat), and plugs in the knowledge base's TF-log explanation (common/diagnose).

#include <string>

#include "common/core/error.hpp"
#include "linux/checks/linux_checks.hpp"

namespace tfwsl::linux_checks {

// name_or_path: a built-in profile name or a YAML file; empty: the default profile
// (default_profile_name()). Errors name the profile and the problem.
Result<CheckPolicy> check_policy_for_profile(const std::string& name_or_path);

// The signature base's verdict on a TensorFlow log: the error findings' summaries, joined.
std::string explain_tf_log_with_signatures(const std::string& log);

}  // namespace tfwsl::linux_checks
