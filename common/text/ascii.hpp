#pragma once
// ASCII-only character helpers: the formats tfwsl reads (versions, wsl.exe tokens, .wslconfig keys)
// are ASCII, and the C library's <cctype> depends on the locale and is undefined for negative chars.

#include <string>
#include <string_view>

namespace tfwsl {

constexpr bool ascii_is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace tfwsl
