#pragma once
// wsl.exe writes UTF-16LE to pipes (unless WSL_UTF8=1 is honoured, from WSL 0.64 on), other
// programs write UTF-8 or the console code page. decode_console_output turns whatever arrived into
// UTF-8 text.

#include <string>
#include <string_view>

namespace tfwsl {

enum class ConsoleEncoding { utf8, utf8_bom, utf16le, utf16le_bom, utf16be_bom, utf16be };

const char* to_string(ConsoleEncoding encoding);

// Looks at a byte buffer: a BOM decides; otherwise UTF-16LE is recognised by NUL bytes in odd
// positions of mostly-ASCII text (at least a third of the odd bytes are NUL and almost no even ones),
// and UTF-16BE (a Windows editor's "Unicode big endian" without its BOM) by the mirror image.
ConsoleEncoding detect_console_encoding(std::string_view bytes);

struct DecodedText {
  std::string text;  // UTF-8, BOM removed
  ConsoleEncoding encoding = ConsoleEncoding::utf8;
};

DecodedText decode_console_output(std::string_view bytes);

}  // namespace tfwsl
