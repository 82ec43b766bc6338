#pragma once
// The commit phase: the staged copies gathered into batches, each made durable before visible
// (syncfs, renames through each target folder's descriptor, fsync of those folders, manifest
// records), after which --move deletes their sources. Owns the pending batch; workers stage into
// it from any thread, and one of them at a time commits.

#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "linux/dataset/import_job_context.hpp"
#include "linux/dataset/import_manifest_file.hpp"
#include "linux/dataset/import_move.hpp"
#include "linux/dataset/import_retry_queue.hpp"
#include "linux/dataset/import_staged.hpp"
#include "linux/dataset/posix_files.hpp"
#include "linux/dataset/target_folders.hpp"

namespace tfwsl::dataset::import_detail {

class BatchCommitter {
 public:
  BatchCommitter(int staging_fd, const TargetFolders& folders, ManifestFile& manifest, SourceMover& mover,
                 RetryQueue& retries, JobContext& job)
      : m_staging_fd(staging_fd),
        m_folders(folders),
        m_manifest(manifest),
        m_mover(mover),
        m_retries(retries),
        m_job(job) {}

  // The copy joins the pending batch, which is committed once full (unless another worker is
  // committing: it then waits for the next).
  void stage(Staged staged);
  // Whatever is pending committed now, waiting for a commit in progress.
  void commit_all() { commit_pending(true); }

 private:
  void commit_pending(bool force);
  void commit(std::vector<Staged> batch);
  bool sync_batch(std::vector<Staged>& batch);
  std::vector<Staged> rename_into_place(std::vector<Staged>& batch, std::map<std::string, UniqueFd>& folders);
  void commit_records(const std::vector<Staged>& renamed);
  void discard(const Staged& staged);

  int m_staging_fd;
  const TargetFolders& m_folders;
  ManifestFile& m_manifest;
  SourceMover& m_mover;
  RetryQueue& m_retries;
  JobContext& m_job;

  std::mutex m_pending_mutex;
  std::vector<Staged> m_pending;
  std::uint64_t m_pending_unsynced_bytes = 0;
  std::mutex m_commit_mutex;  // one commit at a time, in batch order
};

}  // namespace tfwsl::dataset::import_detail
