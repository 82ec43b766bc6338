#pragma once
// The DSC v3 schemas a resource's instance schema refers to instead of restating them: DSC's
// manifest schema accepts `_inDesiredState` only as a reference to its own definition
// (PowerShell/DSC schemas/v3/resource/properties/inDesiredState.json, an enum of the published
// URLs). DSC compiles the instance schema with a JSON-schema library built without web fetching
// (PowerShell/DSC Cargo.toml: jsonschema with default-features = false; the error of
// PowerShell/DSC#1033), so the definition travels inside the schema too: under `$defs`, with that
// URL as its `$id`, as DSC's own resources bundle it (resources/PSScript/psscript.dsc.resource.json
// at PowerShell/DSC 861df432).

#include <nlohmann/json.hpp>

namespace tfwsl::cli::dsc {

inline constexpr const char* k_dsc_in_desired_state_schema =
    "https://aka.ms/dsc/schemas/v3/resource/properties/inDesiredState.json";

// The `_inDesiredState` property: the `$ref` DSC's manifest schema requires.
nlohmann::json in_desired_state_property();

// `schema` with DSC's inDesiredState definition bundled under `$defs`, so that it compiles offline.
nlohmann::json with_bundled_dsc_definitions(nlohmann::json schema);

}  // namespace tfwsl::cli::dsc
