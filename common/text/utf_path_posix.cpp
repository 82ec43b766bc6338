// Paths from and to UTF-8 elsewhere: a path is its bytes, kept as they are (a name that is not
// valid UTF-8 still names its file).
#include "common/text/utf_convert.hpp"

namespace tfwsl {

std::filesystem::path path_from_utf8(std::string_view utf8) { return std::filesystem::path(std::string(utf8)); }

std::string path_to_utf8(const std::filesystem::path& path) { return path.string(); }

}  // namespace tfwsl
