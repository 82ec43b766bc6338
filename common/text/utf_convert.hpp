#pragma once
// UTF-8 <-> UTF-16 conversion written against the standards, the same on Windows and Linux
// (std::codecvt is deprecated and its Windows behaviour follows the locale).
// Invalid input never throws: ill-formed sequences become U+FFFD, so a garbled pipe still decodes.

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace tfwsl {

std::u16string utf8_to_utf16(std::string_view utf8);
std::string utf16_to_utf8(std::u16string_view utf16);

// wchar_t is UTF-16 on Windows; these are what the Windows-only code uses at the API boundary.
std::wstring utf8_to_wide(std::string_view utf8);
std::string wide_to_utf8(std::wstring_view wide);

// A path from UTF-8 text and back, without the locale: wide characters on Windows, bytes elsewhere.
std::filesystem::path path_from_utf8(std::string_view utf8);
std::string path_to_utf8(const std::filesystem::path& path);

// Decodes raw UTF-16 bytes (little or big endian) to UTF-8; an odd trailing byte is dropped.
std::string utf16_bytes_to_utf8(std::string_view bytes, bool big_endian = false);

// True when the bytes are well-formed UTF-8.
bool is_valid_utf8(std::string_view bytes);

// The bytes as well-formed UTF-8: each byte that does not start a valid sequence (a stray byte, a
// character cut by a truncation) becomes U+FFFD. Valid text comes back unchanged.
std::string valid_utf8(std::string_view bytes);

}  // namespace tfwsl
