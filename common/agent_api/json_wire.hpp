#pragma once
// JSON as it goes over the wire (HTTP bodies, stdio frames). nlohmann's plain dump() throws on a
// string that is not valid UTF-8, and a body carries observed text (paths, a TensorFlow log) that
// the agent does not control: an answer must never turn into an exception for that. Invalid bytes
// become U+FFFD instead.

#include <nlohmann/json.hpp>
#include <string>

namespace tfwsl::agent_api {

std::string wire_text(const nlohmann::json& value);

}  // namespace tfwsl::agent_api
