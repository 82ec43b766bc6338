#pragma once
// The desired state a DSC engine hands `tfwsl dsc get|test|set`: one JSON object on stdin or in
// --input. It comes from a configuration document a fleet admin (or anyone who can write one) wrote,
// so it is read as untrusted: at most k_max_dsc_document_bytes from stdin (100 MB once grew the
// process to 690 MB), and no deeper than k_nesting_limit (200,000 nested arrays overflowed the stack
// in nlohmann::json's recursive copy and dump) before it is parsed.

#include <cstddef>
#include <istream>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "common/core/error.hpp"

namespace tfwsl::cli::dsc {

inline constexpr std::size_t k_max_dsc_document_bytes = std::size_t{1} << 20;  // a document is a few hundred bytes

// At most k_max_dsc_document_bytes of `in`; more is an error naming `source` and the limit (only one
// byte past the limit is ever read).
Result<std::string> read_dsc_document(std::istream& in, std::string_view source);

// `text` as the desired state (nothing but white space: {}); errors name `source` ("stdin",
// "--input") and the fix.
Result<nlohmann::json> parse_dsc_document(std::string_view text, std::string_view source);

// A value from the document as an error message shows it: JSON (control characters and non-ASCII
// escaped as JSON escapes them), at most 60 characters with "..." when cut.
std::string shown_dsc_value(const nlohmann::json& value);
// A name from the document (a property) the same way, without JSON's quotes: for '{}' in a message.
std::string shown_dsc_name(std::string_view name);

}  // namespace tfwsl::cli::dsc
