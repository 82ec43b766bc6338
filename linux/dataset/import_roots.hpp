#pragma once
// The job's preparation: the source and target opened without following symlinks and checked not
// to overlap, then the state folder in the target, its lock (one job per target) and the staging
// folder. What it opened is one value, held by the job for its whole run.

#include <filesystem>

#include "common/core/error.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/path_policy.hpp"
#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset::import_detail {

struct ImportRoots {
  ResolvedImportPaths paths;
  UniqueFd source, target, state, staging;
  UniqueFd lock;  // held, never read: the flock that keeps a second job off this target
  bool source_is_drvfs = false;
};

Result<ImportRoots> open_import_roots(const ImportOptions& options);

// Every file in staging removed: a crash's temporary files are incomplete or not known durable,
// so they are discarded, never renamed.
void clear_staging(int staging_fd);

// A failed step in the target's state folder, as an error naming the target. Reads errno: call it
// right after the failed call.
Error state_error(const std::filesystem::path& target, const char* doing);

}  // namespace tfwsl::dataset::import_detail
