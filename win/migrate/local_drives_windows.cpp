// On Windows a Windows path is itself; which drives the distro mounts only the distro can say.
#include "common/text/utf_convert.hpp"
#include "common/wsl/drive_path.hpp"
#include "win/migrate/local_project_files.hpp"

namespace tfwsl::migrate {

std::optional<std::filesystem::path> windows_path_here(std::string_view windows_path, const std::string&) {
  if (!wsl::drive_letter_of(windows_path)) return std::nullopt;
  return path_from_utf8(windows_path);
}

std::optional<std::set<char>> drives_mounted_here(const std::string&) { return std::nullopt; }

}  // namespace tfwsl::migrate
