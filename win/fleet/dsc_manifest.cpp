#include "win/fleet/dsc_manifest.hpp"

#include "common/util/ascii.hpp"
#include "win/fleet/dsc_profile_resource.hpp"
#include "win/fleet/dsc_wslconfig_resource.hpp"

namespace tfwsl::cli::dsc {
namespace {

using nlohmann::json;

// DSC's canonical URL for the manifest schema of v3 (any 3.x accepts it).
constexpr const char* k_dsc_manifest_schema = "https://aka.ms/dsc/schemas/v3/bundled/resource/manifest.json";

json manifest_operation(const std::string& verb, const std::string& type) {
  return {{"executable", "tfwsl"}, {"args", {"dsc", verb, "--resource", type}}, {"input", "stdin"}};
}

}  // namespace

const std::vector<std::string>& resource_types() {
  static const std::vector<std::string> types{k_wslconfig_type, k_profile_type};
  return types;
}

std::optional<json> instance_schema(const std::string& type) {
  if (type == k_wslconfig_type) return wslconfig_instance_schema();
  if (type == k_profile_type) return profile_instance_schema();
  return std::nullopt;
}

std::optional<json> resource_manifest(const std::string& type) {
  auto schema = instance_schema(type);
  if (!schema) return std::nullopt;
  json test = manifest_operation("test", type);
  test["return"] = "stateAndDiff";
  json set = manifest_operation("set", type);
  set["implementsPretest"] = true;  // set tests first and writes nothing when already in the desired state
  set["return"] = "state";
  return json{{"$schema", k_dsc_manifest_schema},
              {"type", type},
              {"version", TFWSL_VERSION},
              {"description", (*schema)["description"]},
              {"tags", {"WSL", "TensorFlow", "tfwsl"}},
              {"get", manifest_operation("get", type)},
              {"test", test},
              {"set", set},
              {"export", manifest_operation("export", type)},
              {"exitCodes",
               {{"0", "Success"},
                {"2", "Error: tfwsl logged why (the input or the step, and the fix) as an error line above"},
                {"3", "Internal error in tfwsl: please report it"}}},
              {"schema", {{"embedded", *schema}}}};
}

std::string manifest_file_name(const std::string& type) {
  std::string name = ascii_lower(type);
  for (char& c : name)
    if (c == '/') c = '.';
  return name + ".dsc.resource.json";
}

}  // namespace tfwsl::cli::dsc
