#include "common/parse/toml_unicode_guard.hpp"

#include <cstddef>
#include <string>
#include <string_view>

namespace tfwsl::parse {
namespace {

constexpr char32_t two_byte_stand_in = U'\u0500';    // CYRILLIC CAPITAL LETTER KOMI DE: table says no
constexpr char32_t three_byte_stand_in = U'\uFFFD';  // past the table's range: no

struct Decoded {
  char32_t code_point = 0;
  std::size_t length = 0;  // 0: not a well-formed two- or three-byte sequence
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// Only the two- and three-byte forms matter: every failing code point is below U+FEFF.
Decoded decode_at(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if ((lead & 0xE0) == 0xC0 && at + 1 < text.size() && is_continuation(static_cast<unsigned char>(text[at + 1]))) {
    const char32_t cp = (char32_t{lead} & 0x1F) << 6 | (static_cast<unsigned char>(text[at + 1]) & 0x3F);
    return cp >= 0x80 ? Decoded{cp, 2} : Decoded{};
  }
  if ((lead & 0xF0) == 0xE0 && at + 2 < text.size() && is_continuation(static_cast<unsigned char>(text[at + 1])) &&
      is_continuation(static_cast<unsigned char>(text[at + 2]))) {
    const char32_t cp = (char32_t{lead} & 0x0F) << 12 |
                        (char32_t{static_cast<unsigned char>(text[at + 1])} & 0x3F) << 6 |
                        (static_cast<unsigned char>(text[at + 2]) & 0x3F);
    return cp >= 0x800 ? Decoded{cp, 3} : Decoded{};
  }
  return {};
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
  } else {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
  }
  out += static_cast<char>(0x80 | (cp & 0x3F));
}

}  // namespace

bool toml_whitespace_table_fails_on(char32_t cp) {
  return (cp >= 0xA1 && cp <= 0x499) || (cp >= 0x2C5E && cp <= 0x2FFF) || (cp >= 0x3001 && cp <= 0x3057) ||
         (cp >= 0xFB26 && cp <= 0xFEFE);
}

std::string guard_toml_unicode(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  std::size_t at = 0;
  while (at < text.size()) {
    const Decoded decoded = static_cast<unsigned char>(text[at]) < 0x80 ? Decoded{} : decode_at(text, at);
    if (decoded.length == 0) {
      out += text[at++];
      continue;
    }
    if (toml_whitespace_table_fails_on(decoded.code_point)) {
      append_utf8(out, decoded.length == 2 ? two_byte_stand_in : three_byte_stand_in);
    } else {
      out.append(text.substr(at, decoded.length));
    }
    at += decoded.length;
  }
  return out;
}

}  // namespace tfwsl::parse
