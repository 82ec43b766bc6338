// Elsewhere than Windows a Windows path is reached through the drive mounts (WSL's automount,
// learn.microsoft.com/windows/wsl/wsl-config "automount settings"), as drive_path_in_distro maps it.
#include "common/text/utf_convert.hpp"
#include "common/wsl/drive_path.hpp"
#include "win/migrate/local_project_files.hpp"

namespace tfwsl::migrate {

std::optional<std::filesystem::path> windows_path_here(std::string_view windows_path, const std::string& drive_root) {
  auto mapped = wsl::drive_path_in_distro(windows_path, drive_root);
  if (!mapped) return std::nullopt;
  return path_from_utf8(*mapped);
}

std::optional<std::set<char>> drives_mounted_here(const std::string& drive_root) {
  std::set<char> drives;
  for (char letter = 'a'; letter <= 'z'; ++letter) {
    std::error_code ec;
    if (std::filesystem::is_directory(path_from_utf8(drive_root + letter), ec)) drives.insert(letter);
  }
  // No drive at all under the root: not a WSL mount layout (a plain Linux machine), so unknown.
  if (drives.empty()) return std::nullopt;
  return drives;
}

}  // namespace tfwsl::migrate
