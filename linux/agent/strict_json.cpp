#include "linux/agent/strict_json.hpp"

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "common/util/nesting_depth.hpp"

namespace tfwsl::agent {

Result<nlohmann::json> parse_json_strict(std::string_view text) {
  // nlohmann::json copies and dumps a value recursively: a body nested 200,000 deep is a few hundred KB.
  TFWSL_TRY_STATUS(check_nesting_depth(text, NestingSyntax::json, "the body"));
  using Event = nlohmann::json::parse_event_t;
  std::vector<std::set<std::string>> open_objects;  // the keys seen so far in each object being parsed
  std::optional<std::string> duplicate;
  auto watch = [&](int, Event event, nlohmann::json& parsed) {
    if (event == Event::object_start) {
      open_objects.emplace_back();
    } else if (event == Event::object_end) {
      if (!open_objects.empty()) open_objects.pop_back();
    } else if (event == Event::key && !open_objects.empty() && !duplicate) {
      auto key = parsed.get<std::string>();
      if (!open_objects.back().insert(key).second) duplicate = key.substr(0, 64);
    }
    return true;
  };
  auto value = nlohmann::json::parse(text.begin(), text.end(), watch, /*allow_exceptions=*/false);
  if (value.is_discarded()) return make_error(ErrorCode::parse, "the body is not valid JSON");
  if (duplicate) return make_error(ErrorCode::parse, "the JSON object has the key '" + *duplicate + "' more than once");
  return value;
}

}  // namespace tfwsl::agent
