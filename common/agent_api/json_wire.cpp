#include "common/agent_api/json_wire.hpp"

namespace tfwsl::agent_api {

std::string wire_text(const nlohmann::json& value) {
  return value.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace tfwsl::agent_api
