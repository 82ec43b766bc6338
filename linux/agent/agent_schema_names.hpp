#pragma once
// The schema names of tfwsl-agent's own --json outputs
// (docs/schema/<name without "tfwsl.">.schema.json); the envelope and the shared names are in
// common/cli/json_envelope.hpp.

#include <string_view>

#include "common/cli/json_envelope.hpp"

namespace tfwsl::json_schema {

inline constexpr std::string_view k_check = "tfwsl.check";
inline constexpr std::string_view k_dataset_import = "tfwsl.dataset-import";
inline constexpr std::string_view k_venv_install = "tfwsl.venv-install";
inline constexpr std::string_view k_venv_verify = "tfwsl.venv-verify";

}  // namespace tfwsl::json_schema
