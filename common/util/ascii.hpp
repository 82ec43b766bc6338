#pragma once
// ASCII-only text helpers: the formats tfwsl reads (versions, wsl.exe tokens, .wslconfig keys,
// profile values) are ASCII where it matters, and the C library's <cctype> depends on the locale
// and is undefined for negative chars. What counts as whitespace is decided here, once.

#include <string>
#include <string_view>

namespace tfwsl {

constexpr bool ascii_is_digit(char c) { return c >= '0' && c <= '9'; }
constexpr bool ascii_is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool ascii_is_alnum(char c) { return ascii_is_alpha(c) || ascii_is_digit(c); }
constexpr bool ascii_is_xdigit(char c) { return ascii_is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
constexpr bool ascii_is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}
constexpr char ascii_lower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }
constexpr char ascii_upper(char c) { return (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c; }

inline std::string ascii_lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

// Without ASCII whitespace at either end (a no-break space or other Unicode space stays: the
// parsers that must drop those say so, with trim_with_nbsp).
constexpr std::string_view trim_left(std::string_view text) {
  while (!text.empty() && ascii_is_space(text.front())) text.remove_prefix(1);
  return text;
}
constexpr std::string_view trim_right(std::string_view text) {
  while (!text.empty() && ascii_is_space(text.back())) text.remove_suffix(1);
  return text;
}
constexpr std::string_view trim(std::string_view text) { return trim_right(trim_left(text)); }

// Without ASCII whitespace nor no-break spaces (U+00A0, UTF-8 C2 A0) at either end, in any mix:
// for pasted text, where French labels ("Version WSL\u00a0: 2.0") and web pages put them.
constexpr std::string_view trim_with_nbsp(std::string_view text) {
  constexpr std::string_view nbsp = "\xC2\xA0";
  for (;;) {
    if (!text.empty() && ascii_is_space(text.front())) {
      text.remove_prefix(1);
    } else if (text.starts_with(nbsp)) {
      text.remove_prefix(nbsp.size());
    } else {
      break;
    }
  }
  for (;;) {
    if (!text.empty() && ascii_is_space(text.back())) {
      text.remove_suffix(1);
    } else if (text.ends_with(nbsp)) {
      text.remove_suffix(nbsp.size());
    } else {
      break;
    }
  }
  return text;
}

// Non-empty and ASCII digits only ("0042"; not "", "+1", "1.0").
constexpr bool ascii_all_digits(std::string_view text) {
  if (text.empty()) return false;
  for (char c : text)
    if (!ascii_is_digit(c)) return false;
  return true;
}

// ASCII case-insensitive comparison and search.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  return true;
}
constexpr bool istarts_with(std::string_view text, std::string_view prefix) {
  return text.size() >= prefix.size() && iequals(text.substr(0, prefix.size()), prefix);
}
constexpr bool icontains(std::string_view text, std::string_view needle) {
  if (needle.empty()) return true;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i)
    if (iequals(text.substr(i, needle.size()), needle)) return true;
  return false;
}

}  // namespace tfwsl
