#include "common/util/visible_text.hpp"

#include <cstdint>
#include <optional>

namespace tfwsl {
namespace {

constexpr char k_hex[] = "0123456789abcdef";

struct Decoded {
  std::uint32_t code_point = 0;
  std::size_t length = 0;
};

bool is_continuation(unsigned char byte) { return (byte & 0xC0) == 0x80; }

// The well-formed UTF-8 sequence at `at` (Unicode 15, table 3-7), or nothing: no overlong form,
// no surrogate, nothing past U+10FFFF, no sequence cut short.
std::optional<Decoded> decode_at(std::string_view text, std::size_t at) {
  const auto lead = static_cast<unsigned char>(text[at]);
  if (lead < 0x80) return Decoded{lead, 1};
  std::size_t length = 0;
  std::uint32_t minimum = 0;
  std::uint32_t code_point = 0;
  if (lead >= 0xC2 && lead <= 0xDF) {
    length = 2, minimum = 0x80, code_point = lead & 0x1F;
  } else if (lead >= 0xE0 && lead <= 0xEF) {
    length = 3, minimum = 0x800, code_point = lead & 0x0F;
  } else if (lead >= 0xF0 && lead <= 0xF4) {
    length = 4, minimum = 0x10000, code_point = lead & 0x07;
  } else {
    return std::nullopt;
  }
  if (at + length > text.size()) return std::nullopt;
  for (std::size_t i = 1; i < length; ++i) {
    const auto byte = static_cast<unsigned char>(text[at + i]);
    if (!is_continuation(byte)) return std::nullopt;
    code_point = (code_point << 6) | (byte & 0x3F);
  }
  if (code_point < minimum || code_point > 0x10FFFF || (code_point >= 0xD800 && code_point <= 0xDFFF))
    return std::nullopt;
  return Decoded{code_point, length};
}

bool must_write_out(std::uint32_t c) {
  return c < 0x20 || c == 0x7F || (c >= 0x80 && c <= 0x9F) || c == 0x2028 || c == 0x2029 ||
         (c >= 0x202A && c <= 0x202E) || (c >= 0x2066 && c <= 0x2069);
}

void append_byte_escape(unsigned char byte, std::string& out) {
  switch (byte) {
    case '\n':
      out += "\\n";
      return;
    case '\r':
      out += "\\r";
      return;
    case '\t':
      out += "\\t";
      return;
    default:
      break;
  }
  out += "\\x";
  out += k_hex[byte >> 4];
  out += k_hex[byte & 0x0F];
}

void append_code_point_escape(std::uint32_t c, std::string& out) {
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += k_hex[(c >> shift) & 0x0F];
}

}  // namespace

std::string visible_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0; at < text.size();) {
    const auto decoded = decode_at(text, at);
    if (!decoded) {
      append_byte_escape(static_cast<unsigned char>(text[at]), out);
      ++at;
      continue;
    }
    if (!must_write_out(decoded->code_point)) {
      out.append(text.substr(at, decoded->length));
    } else if (decoded->code_point < 0x80) {
      append_byte_escape(static_cast<unsigned char>(decoded->code_point), out);
    } else {
      append_code_point_escape(decoded->code_point, out);
    }
    at += decoded->length;
  }
  return out;
}

bool needs_visible_text(std::string_view text) {
  for (std::size_t at = 0; at < text.size();) {
    const auto decoded = decode_at(text, at);
    if (!decoded || must_write_out(decoded->code_point)) return true;
    at += decoded->length;
  }
  return false;
}

}  // namespace tfwsl
