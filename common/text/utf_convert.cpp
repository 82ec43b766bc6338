#include "common/text/utf_convert.hpp"

namespace tfwsl {
namespace {

constexpr char32_t k_replacement = 0xFFFD;

// Decodes one code point starting at bytes[i]; advances i past it. Ill-formed input yields U+FFFD
// and consumes one byte (the "maximal subpart" rule is not needed for our purposes).
char32_t next_code_point(std::string_view bytes, std::size_t& i) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(bytes[k]); };
  unsigned char lead = byte(i);
  if (lead < 0x80) {
    ++i;
    return lead;
  }
  int extra = 0;
  char32_t cp = 0;
  char32_t min = 0;
  if ((lead & 0xE0) == 0xC0) {
    extra = 1;
    cp = lead & 0x1F;
    min = 0x80;
  } else if ((lead & 0xF0) == 0xE0) {
    extra = 2;
    cp = lead & 0x0F;
    min = 0x800;
  } else if ((lead & 0xF8) == 0xF0) {
    extra = 3;
    cp = lead & 0x07;
    min = 0x10000;
  } else {
    ++i;
    return k_replacement;
  }
  if (i + extra >= bytes.size()) {
    ++i;
    return k_replacement;
  }  // truncated sequence
  for (int k = 1; k <= extra; ++k) {
    unsigned char c = byte(i + k);
    if ((c & 0xC0) != 0x80) {
      ++i;
      return k_replacement;
    }
    cp = (cp << 6) | (c & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return k_replacement;
  }
  i += extra + 1;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

template <class CharAt>
std::string decode_utf16(std::size_t units, CharAt unit_at) {
  std::string out;
  out.reserve(units);
  for (std::size_t i = 0; i < units; ++i) {
    char32_t u = unit_at(i);
    if (u >= 0xD800 && u <= 0xDBFF && i + 1 < units) {
      char32_t low = unit_at(i + 1);
      if (low >= 0xDC00 && low <= 0xDFFF) {
        append_utf8(out, 0x10000 + ((u - 0xD800) << 10) + (low - 0xDC00));
        ++i;
        continue;
      }
    }
    if (u >= 0xD800 && u <= 0xDFFF) u = k_replacement;  // lone surrogate
    append_utf8(out, u);
  }
  return out;
}

}  // namespace

std::u16string utf8_to_utf16(std::string_view utf8) {
  std::u16string out;
  out.reserve(utf8.size());
  std::size_t i = 0;
  while (i < utf8.size()) {
    char32_t cp = next_code_point(utf8, i);
    if (cp >= 0x10000) {
      cp -= 0x10000;
      out += static_cast<char16_t>(0xD800 + (cp >> 10));
      out += static_cast<char16_t>(0xDC00 + (cp & 0x3FF));
    } else {
      out += static_cast<char16_t>(cp);
    }
  }
  return out;
}

std::string utf16_to_utf8(std::u16string_view utf16) {
  return decode_utf16(utf16.size(), [&](std::size_t i) { return static_cast<char32_t>(utf16[i]); });
}

std::wstring utf8_to_wide(std::string_view utf8) {
  std::u16string u16 = utf8_to_utf16(utf8);
  if constexpr (sizeof(wchar_t) == 2) {
    return std::wstring(u16.begin(), u16.end());
  } else {
    // wchar_t is UTF-32 on Linux: only used in tests there.
    std::string back = utf16_to_utf8(u16);
    std::wstring out;
    std::size_t i = 0;
    while (i < back.size()) out += static_cast<wchar_t>(next_code_point(back, i));
    return out;
  }
}

std::string wide_to_utf8(std::wstring_view wide) {
  if constexpr (sizeof(wchar_t) == 2) {
    return decode_utf16(wide.size(),
                        [&](std::size_t i) { return static_cast<char32_t>(static_cast<char16_t>(wide[i])); });
  } else {
    std::string out;
    for (wchar_t c : wide) {
      char32_t cp = static_cast<char32_t>(c);
      if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) cp = k_replacement;
      append_utf8(out, cp);
    }
    return out;
  }
}

std::string utf16_bytes_to_utf8(std::string_view bytes, bool big_endian) {
  auto unit = [&](std::size_t i) {
    auto lo = static_cast<unsigned char>(bytes[2 * i + (big_endian ? 1 : 0)]);
    auto hi = static_cast<unsigned char>(bytes[2 * i + (big_endian ? 0 : 1)]);
    return static_cast<char32_t>(lo | (hi << 8));
  };
  return decode_utf16(bytes.size() / 2, unit);
}

bool is_valid_utf8(std::string_view bytes) {
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t before = i;
    char32_t cp = next_code_point(bytes, i);
    if (cp == k_replacement) {
      // A literal U+FFFD (EF BF BD) is valid; a replacement produced by bad bytes advanced by one.
      if (i - before != 3) return false;
    }
  }
  return true;
}

std::string valid_utf8(std::string_view bytes) {
  if (is_valid_utf8(bytes)) return std::string(bytes);
  std::string out;
  out.reserve(bytes.size() + 16);
  for (std::size_t i = 0; i < bytes.size();) append_utf8(out, next_code_point(bytes, i));
  return out;
}

}  // namespace tfwsl
