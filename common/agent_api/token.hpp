#pragma once
// The agent's bearer token: what a valid one looks like, and the one way to compare two.
// The token travels on the agent's stdin (or in a 0600 token file), never on a command line or in a log.

#include <string>
#include <string_view>

namespace tfwsl::agent_api {

// Lower- or upper-case hex, at least 32 digits (128 bits), at most 256 digits.
inline constexpr std::size_t k_min_token_hex_digits = 32;
inline constexpr std::size_t k_max_token_hex_digits = 256;

bool is_valid_token(std::string_view token);

// Compares in time that depends only on the lengths, never on where the first difference is.
bool constant_time_equal(std::string_view a, std::string_view b);

// "Bearer <token>" -> "<token>"; anything else (another scheme, extra spaces) -> empty.
std::string_view bearer_token(std::string_view authorization_header);

}  // namespace tfwsl::agent_api
