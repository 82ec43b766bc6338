#pragma once
// The copy phase's workers: they take the scan's items in turn (retries first), skip what an
// earlier run imported, copy the rest into staging and hand each copy to the committer. Owns the
// scan's value from here on; every worker thread is joined before run() returns.

#include <atomic>
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "linux/dataset/import_commit.hpp"
#include "linux/dataset/import_copy.hpp"
#include "linux/dataset/import_job_context.hpp"
#include "linux/dataset/import_move.hpp"
#include "linux/dataset/import_retry_queue.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/manifest_index.hpp"
#include "linux/dataset/target_folders.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset::import_detail {

// The phases a worker hands its items to.
struct WorkerPhases {
  FileCopier& copier;
  BatchCommitter& committer;
  SourceMover& mover;
  RetryQueue& retries;
};

class CopyWorkers {
 public:
  CopyWorkers(const ImportOptions& options, ScanResult scan, const ManifestIndex& imported, TargetFolders& folders,
              WorkerPhases phases, JobContext& job)
      : m_options(options),
        m_scan(std::move(scan)),
        m_imported(imported),
        m_folders(folders),
        m_phases(phases),
        m_job(job) {}

  // The target's folders made, then every item copied on `jobs` threads, in rounds while a failed
  // syncfs sends files back; what is complete after a stop is still committed.
  void run(unsigned jobs);
  // The scan's folders, parents before children (for --move's clean-up once the copy is done).
  const std::vector<std::string>& directories() const { return m_scan.directories; }

 private:
  void create_target_directories();
  void worker();
  void process_item(std::size_t index, int attempts);
  bool skip_already_imported(const ScannedItem& item);
  bool give_up_after(const ScannedItem& item, CopyOutcome outcome, int attempts);

  const ImportOptions& m_options;
  ScanResult m_scan;
  const ManifestIndex& m_imported;
  TargetFolders& m_folders;
  WorkerPhases m_phases;
  JobContext& m_job;
  std::atomic<std::size_t> m_next{0};
};

}  // namespace tfwsl::dataset::import_detail
