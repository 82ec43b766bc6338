#pragma once
// The scan: every directory, regular file and symlink under the source root, with sizes and
// mtimes. On a latency-bound source (9P, FUSE) each stat is a round trip, so the stats run on many
// threads, each relative to its folder's held descriptor (no path walk per file), and the threads
// take entries from the listed folders in turn: some filesystems serialize lookups within one
// folder, and a scan that worked through one folder at a time would queue behind that lock.
// Symlinks are recorded, never followed.

#include <sys/types.h>

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "common/core/error.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/posix_files.hpp"
#include "linux/dataset/scan_items.hpp"

namespace tfwsl::dataset {

struct ScanResult {
  ScanItems items;                       // files and symlinks, sorted by path
  std::vector<std::string> directories;  // below the root, parents before children
  // (st_dev, st_ino) of the root and of every folder listed: the import never renames into one.
  std::vector<FileId> directory_ids;
  std::vector<FileProblem> problems;  // vanished, unreadable, unsupported entries
};

// Stats are pure waiting on a latency-bound source; threads that wait cost a stack, not a core.
inline constexpr unsigned k_default_scan_threads = 64;

struct ScanOptions {
  unsigned threads = k_default_scan_threads;
  // Listed folders whose descriptors stay open for their entries' stats; beyond this many, a
  // folder is opened again beneath the root (no symlink followed) for each run of its entries'
  // stats (slower, never out of descriptors).
  unsigned max_open_folders = 256;
  // Called on the scan's threads for each file or symlink found, before it is recorded, with the
  // source's mtime (which the packed item does not keep): the import's resume check runs here so
  // that its target stats overlap with the source's.
  // It returns false to leave the item out of the result (the import's already imported files).
  std::function<bool(ScannedItem&, std::int64_t mtime_ns)> visit;
  // Entry names (at any depth) left out as if they were not there: a folder of one is not listed.
  std::vector<std::string> exclude;
};

// root_fd: an open directory. The root's own top-level k_state_dir_name is left out, and so is
// every entry named in options.exclude.
ScanResult scan_tree(int root_fd, const ScanOptions& options, const CancelToken& cancel, ProgressTracker& progress);

}  // namespace tfwsl::dataset
