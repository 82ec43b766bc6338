#pragma once
// The envelope every `--json` output carries, so a script or a fleet collector can tell what it
// reads before it reads it: {"schema": {"name": "tfwsl.doctor", "version": 1}, "tfwsl_version": "0.4.0"}.
// The schema files in docs/schema/ describe each name; a version changes only when a field is
// removed or changes meaning (adding an optional field keeps it).

#include <nlohmann/json.hpp>
#include <string_view>

namespace tfwsl {

// The schema names and versions of the outputs (docs/schema/<name without "tfwsl.">.schema.json).
namespace json_schema {
inline constexpr std::string_view k_doctor = "tfwsl.doctor";
inline constexpr std::string_view k_explain = "tfwsl.explain";
inline constexpr std::string_view k_check = "tfwsl.check";
inline constexpr std::string_view k_dataset_import = "tfwsl.dataset-import";
inline constexpr std::string_view k_data_push = "tfwsl.data-push";
inline constexpr std::string_view k_migrate_plan = "tfwsl.migrate.plan";
inline constexpr std::string_view k_profile_validate = "tfwsl.profile-validate";
inline constexpr std::string_view k_profile_show = "tfwsl.profile-show";
inline constexpr std::string_view k_profile_diff = "tfwsl.profile-diff";
inline constexpr std::string_view k_wslconfig = "tfwsl.wslconfig";
inline constexpr std::string_view k_provision = "tfwsl.provision";
inline constexpr std::string_view k_venv_install = "tfwsl.venv-install";
inline constexpr std::string_view k_venv_verify = "tfwsl.venv-verify";
inline constexpr std::string_view k_uninstall = "tfwsl.uninstall";
inline constexpr int k_version = 1;
}  // namespace json_schema

// {"schema": {"name": name, "version": version}, "tfwsl_version": TFWSL_VERSION}
nlohmann::json json_envelope(std::string_view name, int version);

// `body` (an object) with the envelope's two fields added; they replace any of the same name.
nlohmann::json with_json_envelope(nlohmann::json body, std::string_view name, int version);

}  // namespace tfwsl
