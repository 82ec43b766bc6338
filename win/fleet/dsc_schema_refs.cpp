#include "win/fleet/dsc_schema_refs.hpp"

namespace tfwsl::cli::dsc {

using nlohmann::json;

json in_desired_state_property() { return {{"$ref", k_dsc_in_desired_state_schema}}; }

json with_bundled_dsc_definitions(json schema) {
  // PowerShell/DSC schemas/v3/resource/properties/inDesiredState.json, word for word but its `$id`.
  schema["$defs"][k_dsc_in_desired_state_schema] = {
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"$id", k_dsc_in_desired_state_schema},
      {"title", "Instance is in the Desired State"},
      {"description",
       "Indicates whether the instance is in the desired state. This property is only returned by the `test` method."},
      {"type", {"boolean", "null"}},
      {"readOnly", true}};
  return schema;
}

}  // namespace tfwsl::cli::dsc
