#pragma once
// The job's scan phase: the source tree listed (with the resume check against the manifest on the
// scan's threads), its problems and unusual names reported, large files put first, and the
// free-space preflight. Hands the copy phase the scan's value.

#include <cstdint>
#include <filesystem>

#include "common/core/error.hpp"
#include "linux/dataset/import_problems.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/manifest_index.hpp"
#include "linux/dataset/progress.hpp"
#include "linux/dataset/target_folders.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset::import_detail {

class SourceScan {
 public:
  SourceScan(const ImportOptions& options, const ManifestIndex& imported, const TargetFolders& folders,
             ProgressTracker& progress, ProblemList& problems)
      : m_options(options), m_imported(imported), m_folders(folders), m_progress(progress), m_problems(problems) {}

  // The source beneath source_fd, scanned on `jobs` threads or more; cancelled or short of space
  // on the target (target_fd) is an error.
  Result<ScanResult> run(int source_fd, int target_fd, const std::filesystem::path& target, unsigned jobs,
                         const CancelToken& cancel);

 private:
  bool check_resume(ScannedItem& item, std::int64_t mtime_ns) const;

  const ImportOptions& m_options;
  const ManifestIndex& m_imported;
  const TargetFolders& m_folders;
  ProgressTracker& m_progress;
  ProblemList& m_problems;
};

}  // namespace tfwsl::dataset::import_detail
