#include "common/cli/json_envelope.hpp"

#include <string>

namespace tfwsl {

nlohmann::json json_envelope(std::string_view name, int version) {
  return {{"schema", {{"name", std::string(name)}, {"version", version}}}, {"tfwsl_version", TFWSL_VERSION}};
}

nlohmann::json with_json_envelope(nlohmann::json body, std::string_view name, int version) {
  for (auto& [key, value] : json_envelope(name, version).items()) body[key] = value;
  return body;
}

}  // namespace tfwsl
