// Paths from and to UTF-8 on Windows: std::filesystem::path holds UTF-16 there, and its narrow
// constructor would read the bytes in the ANSI code page.
#include "common/text/utf_convert.hpp"

namespace tfwsl {

std::filesystem::path path_from_utf8(std::string_view utf8) { return std::filesystem::path(utf8_to_wide(utf8)); }

std::string path_to_utf8(const std::filesystem::path& path) { return wide_to_utf8(path.wstring()); }

}  // namespace tfwsl
