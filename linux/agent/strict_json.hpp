#pragma once
// Request bodies are parsed strictly: RFC 8259 section 4 only says names SHOULD be unique, and
// nlohmann::json keeps the last of two equal keys, so {"path":"a","path":"b"} would mean one thing
// to us and another to a parser that keeps the first. The agent refuses any repeated key instead.

#include <nlohmann/json.hpp>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::agent {

// The parsed value; ErrorCode::parse when `text` is not JSON or an object repeats a key (the
// message names the key, cut to 64 bytes). Linear in the input: one set of keys per open object.
Result<nlohmann::json> parse_json_strict(std::string_view text);

}  // namespace tfwsl::agent
