#pragma once
// ASCII text as the bytes wsl.exe writes to a pipe: UTF-16LE (each byte followed by NUL), with the
// byte-order mark in front when asked for.

#include <string>
#include <string_view>

namespace tfwsl::test {

inline std::string ascii_as_utf16le(std::string_view ascii, bool bom = false) {
  std::string out = bom ? "\xff\xfe" : "";
  for (char c : ascii) {
    out += c;
    out += '\0';
  }
  return out;
}

}  // namespace tfwsl::test
