#pragma once
// The longest prefix of UTF-8 text that fits in a number of bytes without cutting a character in
// two (a continuation byte, 10xxxxxx, never starts the cut-off part). For limits counted in bytes
// by whoever reads the text (Intune keeps 2,048 characters of a script's output line).

#include <cstddef>
#include <string_view>

namespace tfwsl {

constexpr std::string_view utf8_prefix(std::string_view text, std::size_t max_bytes) {
  if (text.size() <= max_bytes) return text;
  std::size_t end = max_bytes;
  while (end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80) --end;
  return text.substr(0, end);
}

}  // namespace tfwsl
