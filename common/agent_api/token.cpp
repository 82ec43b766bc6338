#include "common/agent_api/token.hpp"

namespace tfwsl::agent_api {

bool is_valid_token(std::string_view token) {
  if (token.size() < k_min_token_hex_digits || token.size() > k_max_token_hex_digits) return false;
  for (char c : token) {
    bool hex = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    if (!hex) return false;
  }
  return true;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  // Walk the longer length in full so a short guess costs as long as a right-length one; the
  // length difference is folded into the result instead of returning early.
  std::size_t n = a.size() > b.size() ? a.size() : b.size();
  unsigned char diff = static_cast<unsigned char>(a.size() != b.size());
  for (std::size_t i = 0; i < n; ++i) {
    unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
    unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
    diff |= static_cast<unsigned char>(x ^ y);
  }
  // volatile keeps the optimiser from turning the loop back into an early-exit memcmp.
  volatile unsigned char result = diff;
  return result == 0;
}

std::string_view bearer_token(std::string_view header) {
  constexpr std::string_view k_scheme = "Bearer ";
  if (header.size() <= k_scheme.size() || header.substr(0, k_scheme.size()) != k_scheme) return {};
  auto token = header.substr(k_scheme.size());
  for (char c : token)
    if (c == ' ' || c == '\t') return {};
  return token;
}

}  // namespace tfwsl::agent_api
