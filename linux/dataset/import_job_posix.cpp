// The job from start to end: prepare, scan, copy (with its commits and --move's deletions), then
// --move's folder clean-up, the manifest's compaction and the report or the error a stop gives.
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "linux/dataset/import_commit.hpp"
#include "linux/dataset/import_copy.hpp"
#include "linux/dataset/import_engine.hpp"
#include "linux/dataset/import_job.hpp"
#include "linux/dataset/import_retry_queue.hpp"
#include "linux/dataset/import_scan.hpp"
#include "linux/dataset/import_workers.hpp"
#include "linux/dataset/target_folders.hpp"

namespace tfwsl::dataset {
namespace import_detail {

Result<ImportReport> ImportJob::run() {
  m_progress.set_phase(ImportPhase::starting);
  auto start = std::chrono::steady_clock::now();
  TFWSL_TRY(roots, open_import_roots(m_options));
  // Temporary files left by a crash are incomplete or not known durable: discarded, never renamed.
  clear_staging(roots.staging.get());
  ManifestFile manifest(roots.state.get(), roots.paths.target, m_files, m_options.verify || m_options.move);
  TFWSL_TRY_STATUS(manifest.open());
  auto prepare_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count();
  spdlog::debug("prepare (lock, staging, manifest of {} records): {} ms", manifest.loaded().size(), prepare_ms);
  return copy_and_finish(roots, manifest);
}

Result<ImportReport> ImportJob::copy_and_finish(ImportRoots& roots, ManifestFile& manifest) {
  unsigned jobs = std::clamp(m_options.jobs, 1u, k_max_jobs);
  TargetFolders folders(roots.target.get());
  SourceScan scan(m_options, manifest.loaded(), folders, m_progress, m_problems);
  TFWSL_TRY(scanned, scan.run(roots.source.get(), roots.target.get(), roots.paths.target, jobs, m_cancel));
  SourceMover mover(m_options.move, roots.source.get(), m_job);
  RetryQueue retries;
  FileCopier copier(roots, m_job);
  BatchCommitter committer(roots.staging.get(), folders, manifest, mover, retries, m_job);
  CopyWorkers workers(m_options, std::move(scanned), manifest.loaded(), folders, {copier, committer, mover, retries},
                      m_job);
  workers.run(jobs);
  m_progress.set_phase(ImportPhase::finishing);
  if (!m_stop.stopping()) mover.remove_emptied_folders(workers.directories());
  return finish(roots, manifest);
}

Result<ImportReport> ImportJob::finish(const ImportRoots& roots, ManifestFile& manifest) {
  clear_staging(roots.staging.get());
  Status compacted = manifest.compact_if_superseded();
  if (m_cancel.cancelled() && !m_stop.failed())
    return make_error(ErrorCode::cancelled,
                      "the import was cancelled; files already imported are intact: run it again to resume");
  if (m_stop.failed())
    return tl::unexpected(
        m_stop.error(StopState{roots.paths.target.string(), m_options.move, m_progress.snapshot().files_moved}));
  if (!compacted) return tl::unexpected(compacted.error());
  m_progress.set_phase(ImportPhase::done);
  return m_problems.report(m_progress.snapshot());
}

}  // namespace import_detail

Result<ImportReport> run_import(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel) {
  import_detail::ImportJob job(options, progress, cancel);
  return job.run();
}

}  // namespace tfwsl::dataset
