#include "common/cli/json_envelope.hpp"

#include <string>

namespace tfwsl {

nlohmann::json json_envelope(std::string_view name, int version) {
  return {{"schema", {{"name", std::string(name)}, {"version", version}}}, {"tfwsl_version", TFWSL_VERSION}};
}

nlohmann::json with_json_envelope(nlohmann::json body, std::string_view name, int version) {
  // Named: a range-for over json_envelope(...).items() would outlive the temporary it walks.
  const nlohmann::json envelope = json_envelope(name, version);
  for (const auto& [key, value] : envelope.items()) body[key] = value;
  return body;
}

}  // namespace tfwsl
