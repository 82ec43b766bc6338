#pragma once
// The schema names of tfwsl's own --json outputs
// (docs/schema/<name without "tfwsl.">.schema.json); the envelope and the shared names are in
// common/cli/json_envelope.hpp.

#include <string_view>

#include "common/cli/json_envelope.hpp"

namespace tfwsl::json_schema {

inline constexpr std::string_view k_doctor = "tfwsl.doctor";
inline constexpr std::string_view k_explain = "tfwsl.explain";
inline constexpr std::string_view k_migrate_plan = "tfwsl.migrate.plan";
inline constexpr std::string_view k_profile_validate = "tfwsl.profile-validate";
inline constexpr std::string_view k_profile_show = "tfwsl.profile-show";
inline constexpr std::string_view k_profile_diff = "tfwsl.profile-diff";
inline constexpr std::string_view k_wslconfig = "tfwsl.wslconfig";
inline constexpr std::string_view k_uninstall = "tfwsl.uninstall";
inline constexpr std::string_view k_run_where = "tfwsl.run-where";

}  // namespace tfwsl::json_schema
