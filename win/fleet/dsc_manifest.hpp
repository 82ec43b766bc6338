#pragma once
// The DSC v3 resource manifests of tfwsl's two resource types, generated from the same code that
// serves them (the instance schemas come from the resources themselves), so the file DSC reads
// and the program it calls cannot drift apart. `tfwsl dsc manifest --resource TYPE` prints one;
// scripts/release.sh puts each beside tfwsl.exe as TYPE's name plus .dsc.resource.json, where DSC
// finds it on PATH.

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

namespace tfwsl::cli::dsc {

// "Tfwsl/WslConfig", "Tfwsl/Profile".
const std::vector<std::string>& resource_types();

// The manifest (schemas/v3.1.0 bundled/resource/manifest.json of PowerShell/DSC); nothing for an
// unknown type.
std::optional<nlohmann::json> resource_manifest(const std::string& type);

// The instance schema of a type; nothing for an unknown type.
std::optional<nlohmann::json> instance_schema(const std::string& type);

// The manifest's file name: "tfwsl.wslconfig.dsc.resource.json".
std::string manifest_file_name(const std::string& type);

}  // namespace tfwsl::cli::dsc
