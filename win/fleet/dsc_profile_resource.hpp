#pragma once
// The DSC v3 resource Tfwsl/Profile (docs/fleet.md): a distro provisioned for a profile (a built-in
// name or a YAML file). get and test are `tfwsl provision --check --json` (read-only: every step
// checked, nothing changed); set is `tfwsl provision --yes --json`, whose steps are each checked
// before they are applied, so a set on a machine in the desired state changes nothing.

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "win/fleet/tfwsl_invoker.hpp"

namespace tfwsl::cli::dsc {

inline constexpr const char* k_profile_type = "Tfwsl/Profile";

nlohmann::json profile_instance_schema();

// The state: "profile" (and "user" when given), each step's result and message, and the counts.
Result<nlohmann::json> profile_get(const nlohmann::json& desired, TfwslInvoker& tfwsl);

struct ProfileTest {
  nlohmann::json state;                // with "_inDesiredState": no step would change or failed
  std::vector<std::string> differing;  // "steps" when a step would change
};
Result<ProfileTest> profile_test(const nlohmann::json& desired, TfwslInvoker& tfwsl);

// Provisions only when test says a step would change; returns the state checked afterwards.
Result<nlohmann::json> profile_set(const nlohmann::json& desired, TfwslInvoker& tfwsl);

// `dsc config export`: the profile in effect (`in_effect`: what tfwsl's commands use when not told,
// common/profile/profile_locate.hpp; a filter's "profile" or "user" wins), as get checks it.
Result<std::vector<nlohmann::json>> profile_export(const nlohmann::json& filter, const std::string& in_effect,
                                                   TfwslInvoker& tfwsl);

}  // namespace tfwsl::cli::dsc
