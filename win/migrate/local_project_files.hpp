#pragma once
// ProjectFiles on this machine's file system. Windows paths: on Windows as they are; elsewhere
// (tfwsl built natively, or run inside a distro) through the drive root, "D:\\data" ->
// "<drive_root>d/data", as WSL mounts drives (common/wsl/drive_path.hpp).

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "win/migrate/project_files.hpp"

namespace tfwsl::migrate {

// Where a Windows path is on this machine: the path itself on Windows, the drive mount elsewhere.
std::optional<std::filesystem::path> windows_path_here(std::string_view windows_path, const std::string& drive_root);

// The drives mounted under the drive root (elsewhere than Windows: the letters with a folder there,
// nothing when there is none: not a WSL layout); on Windows nothing (the distro is not this
// machine: the command asks it).
std::optional<std::set<char>> drives_mounted_here(const std::string& drive_root);

class LocalProjectFiles final : public ProjectFiles {
 public:
  LocalProjectFiles(std::filesystem::path root, std::string drive_root);

  bool project_exists() override;
  Result<std::vector<ProjectFile>> list(int max_depth) override;
  Result<std::string> read(const std::string& path, std::size_t max_bytes) override;
  std::optional<TreeStats> windows_tree(std::string_view windows_path) override;
  std::optional<std::set<char>> mounted_drives() override;
  bool file_exists(const std::string& path) override;
  std::optional<std::string> copy_source(std::string_view windows_path) override;

  // Drives the caller learned from the distro, replacing what this machine shows.
  void set_mounted_drives(std::set<char> drives) { m_mounted = std::move(drives); }

 private:
  std::filesystem::path m_root;
  std::string m_drive_root;
  std::optional<std::set<char>> m_mounted;
};

}  // namespace tfwsl::migrate
