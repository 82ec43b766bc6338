#pragma once
// The scan: every directory, regular file and symlink under the source root, with sizes and
// mtimes. Directory listings and the per-entry stats are spread over worker threads, because on a
// latency-bound source (9P) each stat is a round trip and a serial scan would dominate the import.
// Symlinks are recorded, never followed.

#include <cstdint>
#include <string>
#include <sys/types.h>
#include <vector>

#include "common/core/error.hpp"
#include "common/dataset/import_types.hpp"

namespace tfwsl::dataset {

enum class ItemKind { file, symlink };

struct ScannedItem {
  std::string path;  // relative to the root, raw bytes
  ItemKind kind = ItemKind::file;
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;
  mode_t mode = 0;
};

struct ScanResult {
  std::vector<ScannedItem> items;        // files and symlinks
  std::vector<std::string> directories;  // below the root, parents before children
  std::vector<FileProblem> problems;     // vanished, unreadable, unsupported entries
};

// root_fd: an open directory. The root's own top-level k_state_dir_name is left out.
ScanResult scan_tree(int root_fd, unsigned workers, const CancelToken& cancel, ProgressTracker& progress);

}  // namespace tfwsl::dataset
