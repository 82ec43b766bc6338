#pragma once
// The port through which migrate sees files: the project folder (listed and read, never written by
// the scan), the Windows folders its code names (sizes and file counts), and the drives the distro
// mounts. LocalProjectFiles is this machine's; tests pass an in-memory one.

#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "common/core/error.hpp"

namespace tfwsl::migrate {

struct ProjectFile {
  std::string path;  // relative to the project, '/'-separated: "src/train.py"
  std::uint64_t size = 0;
};

struct TreeStats {
  bool is_directory = false;
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
};

// Folders the scan never enters: environments, caches, version control (their files are not the
// project's own code or requirements).
bool is_skipped_folder(std::string_view name);

class ProjectFiles {
 public:
  virtual ~ProjectFiles() = default;
  // Whether the project folder exists and is a folder.
  virtual bool project_exists() = 0;
  // Every file under the project (skipping is_skipped_folder), at most max_depth folders deep.
  virtual Result<std::vector<ProjectFile>> list(int max_depth) = 0;
  // One file of the project, at most max_bytes (an error when it is larger or unreadable).
  virtual Result<std::string> read(const std::string& path, std::size_t max_bytes) = 0;
  // A Windows path ("D:\\data\\x") as this machine sees it; nothing when it does not exist here.
  virtual std::optional<TreeStats> windows_tree(std::string_view windows_path) = 0;
  // The drive letters (lower case) the distro mounts; nothing when that is not known.
  virtual std::optional<std::set<char>> mounted_drives() = 0;
  // Whether anything (a file, a folder, a link) is at the project's relative path: a target that
  // is taken is never written over unless migrate can prove it wrote it.
  virtual bool file_exists(const std::string& path) { return read(path, 1u << 24).has_value(); }
  // Where the copy engine reads a Windows folder the code names: itself on Windows, its drive
  // mount elsewhere ("D:\\data" -> "/mnt/d/data"); nothing when it is not reachable here.
  virtual std::optional<std::string> copy_source(std::string_view windows_path) { return std::string(windows_path); }
};

}  // namespace tfwsl::migrate
