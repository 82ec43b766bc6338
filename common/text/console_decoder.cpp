#include "common/text/console_decoder.hpp"

#include "common/text/utf_convert.hpp"

namespace tfwsl {

const char* to_string(ConsoleEncoding encoding) {
  switch (encoding) {
    case ConsoleEncoding::utf8:
      return "utf-8";
    case ConsoleEncoding::utf8_bom:
      return "utf-8-bom";
    case ConsoleEncoding::utf16le:
      return "utf-16le";
    case ConsoleEncoding::utf16le_bom:
      return "utf-16le-bom";
    case ConsoleEncoding::utf16be_bom:
      return "utf-16be-bom";
    case ConsoleEncoding::utf16be:
      return "utf-16be";
  }
  return "utf-8";
}

ConsoleEncoding detect_console_encoding(std::string_view bytes) {
  if (bytes.substr(0, 3) == "\xEF\xBB\xBF") return ConsoleEncoding::utf8_bom;
  if (bytes.substr(0, 2) == "\xFF\xFE") return ConsoleEncoding::utf16le_bom;
  if (bytes.substr(0, 2) == "\xFE\xFF") return ConsoleEncoding::utf16be_bom;
  if (bytes.size() < 2) return ConsoleEncoding::utf8;
  std::size_t pairs = bytes.size() / 2;
  std::size_t odd_nul = 0;
  std::size_t even_nul = 0;
  for (std::size_t i = 0; i < pairs; ++i) {
    if (bytes[2 * i] == '\0') ++even_nul;
    if (bytes[2 * i + 1] == '\0') ++odd_nul;
  }
  // ASCII-heavy UTF-16LE has a NUL in nearly every odd byte; CJK text has few, so a third suffices.
  if (odd_nul * 3 >= pairs && even_nul * 10 <= pairs) return ConsoleEncoding::utf16le;
  if (even_nul * 3 >= pairs && odd_nul * 10 <= pairs) return ConsoleEncoding::utf16be;
  return ConsoleEncoding::utf8;
}

DecodedText decode_console_output(std::string_view bytes) {
  ConsoleEncoding enc = detect_console_encoding(bytes);
  switch (enc) {
    case ConsoleEncoding::utf8:
      return {std::string(bytes), enc};
    case ConsoleEncoding::utf8_bom:
      return {std::string(bytes.substr(3)), enc};
    case ConsoleEncoding::utf16le:
      return {utf16_bytes_to_utf8(bytes, false), enc};
    case ConsoleEncoding::utf16le_bom:
      return {utf16_bytes_to_utf8(bytes.substr(2), false), enc};
    case ConsoleEncoding::utf16be_bom:
      return {utf16_bytes_to_utf8(bytes.substr(2), true), enc};
    case ConsoleEncoding::utf16be:
      return {utf16_bytes_to_utf8(bytes, true), enc};
  }
  return {std::string(bytes), enc};
}

}  // namespace tfwsl
