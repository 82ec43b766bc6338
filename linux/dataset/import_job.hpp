#pragma once
// The copy engine's job: it only sequences the phases, each an object of its own that owns its
// state and hands the next a value.
//   prepare  open_import_roots (import_roots.hpp): the roots, the state folder, the lock -> ImportRoots
//   manifest ManifestFile (import_manifest_file.hpp): loaded, appended to, compacted
//   scan     SourceScan (import_scan.hpp): the tree, the resume check, the preflight -> ScanResult
//   copy     CopyWorkers (import_workers.hpp) run FileCopier (import_copy.hpp): item -> Staged
//   commit   BatchCommitter (import_commit.hpp): the pending batch, durable before visible
//   move     SourceMover (import_move.hpp): --move's deletions and emptied folders
//   report   ProblemList (import_problems.hpp) and JobStop (import_job_stop.hpp)
// Every filesystem call that can fail mid-job goes through the port (import_files.hpp). Internal
// to the engine: everyone else calls run_import (import_engine.hpp). POSIX only.

#include "common/core/error.hpp"
#include "linux/dataset/import_files.hpp"
#include "linux/dataset/import_job_context.hpp"
#include "linux/dataset/import_job_stop.hpp"
#include "linux/dataset/import_manifest_file.hpp"
#include "linux/dataset/import_move.hpp"
#include "linux/dataset/import_problems.hpp"
#include "linux/dataset/import_roots.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/progress.hpp"

namespace tfwsl::dataset::import_detail {

class ImportJob {
 public:
  ImportJob(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel)
      : m_options(options),
        m_progress(progress),
        m_cancel(cancel),
        m_files(options.files ? *options.files : posix_import_files(), options.fault_hook),
        m_problems(progress),
        m_stop(cancel),
        m_job{m_files, progress, m_problems, m_stop} {}

  Result<ImportReport> run();

 private:
  Result<ImportReport> copy_and_finish(ImportRoots& roots, ManifestFile& manifest);
  Result<ImportReport> finish(const ImportRoots& roots, ManifestFile& manifest);

  const ImportOptions& m_options;
  ProgressTracker& m_progress;
  const CancelToken& m_cancel;
  HookedImportFiles m_files;
  ProblemList m_problems;
  JobStop m_stop;
  JobContext m_job;
};

}  // namespace tfwsl::dataset::import_detail
