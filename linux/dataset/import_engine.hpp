#pragma once
// The copy engine: source tree -> target folder, parallel, hashed, durable, resumable; --move
// deletes a source file only once its copy is durable, renamed and verified.
// POSIX implementation, one object per phase that the job sequences (import_job.hpp lists them),
// over tree_scan, target_folders and posix_files, its risky filesystem calls behind the port of
// import_files.hpp; docs/datasets.md describes the protocol.

#include "common/core/error.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/progress.hpp"

namespace tfwsl::dataset {

// Runs the whole import. Per-file problems land in the report; an error stops the job cleanly
// (no_space, io, conflict for a second job on the same target, cancelled, invalid_input also for a
// source and target that overlap, parse for a damaged manifest). Either way no temporary file is
// left under a final name, nothing is written outside the target and nothing renamed into a source
// folder.
Result<ImportReport> run_import(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel);

}  // namespace tfwsl::dataset
