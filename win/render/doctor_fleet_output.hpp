#pragma once
// The doctor's report in the two shapes fleet engines read (docs/fleet.md), both made from the
// doctor's published JSON (docs/schema/doctor.schema.json), so they say what `doctor --json` says:
// - one line for an Intune remediation's detection output (Intune keeps the last line and at most
//   2,048 characters of it): `tfwsl doctor --summary-line`;
// - the flat facts an Intune custom-compliance rules file tests (one JSON object of booleans,
//   numbers, strings and versions): `tfwsl doctor --compliance`.

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>

namespace tfwsl::cli {

inline constexpr std::size_t k_summary_line_max_bytes = 2048;

// "tfwsl doctor: 1 issue (exit 2), fix first wsl.distro: <summary> -> <fix>; also: ...; profile P";
// healthy: "tfwsl doctor: ok, N checks; profile P; <the tf.gpu summary>". One line, at most
// k_summary_line_max_bytes bytes of UTF-8.
std::string doctor_summary_line(const nlohmann::json& doctor);

// {"tfwsl_installed", "tfwsl_version", "profile", "doctor_exit_code", "issues", "fix_first", "tf_gpu_visible",
//  "nvidia_driver", "nvidia_driver_meets_profile", "wsl_default_version_2", "wslconfig_memory_set",
//  "distro_ok", "tf_version"} (docs/fleet.md lists each with the check it comes from).
nlohmann::json doctor_compliance_facts(const nlohmann::json& doctor);

}  // namespace tfwsl::cli
