#pragma once
// The envelope every `--json` output carries, so a script or a fleet collector can tell what it
// reads before it reads it: {"schema": {"name": "tfwsl.doctor", "version": 1}, "tfwsl_version": "0.4.0"}.
// The schema files in docs/schema/ describe each name; a version changes only when a field is
// removed or changes meaning (adding an optional field keeps it).

#include <nlohmann/json.hpp>
#include <string_view>

namespace tfwsl {

// The schema names both programs write, and the version every output starts at
// (docs/schema/<name without "tfwsl.">.schema.json). Each program's own names are its own:
// win/render/json_schema_names.hpp, linux/agent/agent_schema_names.hpp.
namespace json_schema {
inline constexpr std::string_view k_provision = "tfwsl.provision";
inline constexpr int k_version = 1;
}  // namespace json_schema

// {"schema": {"name": name, "version": version}, "tfwsl_version": TFWSL_VERSION}
nlohmann::json json_envelope(std::string_view name, int version);

// `body` (an object) with the envelope's two fields added; they replace any of the same name.
nlohmann::json with_json_envelope(nlohmann::json body, std::string_view name, int version);

}  // namespace tfwsl
