#pragma once
// The DSC v3 schemas a resource's instance schema refers to instead of restating them: DSC's
// manifest schema accepts `_inDesiredState` only as a reference to its own definition
// (PowerShell/DSC schemas/v3/resource/properties/inDesiredState.json).

namespace tfwsl::cli::dsc {

inline constexpr const char* k_dsc_in_desired_state_schema =
    "https://aka.ms/dsc/schemas/v3/resource/properties/inDesiredState.json";

}  // namespace tfwsl::cli::dsc
