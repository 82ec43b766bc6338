#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <thread>
#include <utility>

#include "common/util/content_hash.hpp"
#include "linux/dataset/import_tuning.hpp"
#include "linux/dataset/import_workers.hpp"

namespace tfwsl::dataset::import_detail {
namespace {

// Each worker's buffer, allocated on first real use (a re-run that only skips files never needs
// it) and left uninitialised, so that its pages count in the RSS only once a file large enough
// touches them: a worker that copies 64 KiB files uses 64 KiB of it, not 1 MiB.
std::span<char> worker_copy_buffer() {
  thread_local std::unique_ptr<char[]> buffer;
  if (!buffer) buffer.reset(new char[k_buffer_bytes]);
  return {buffer.get(), k_buffer_bytes};
}

ContentHasher& worker_hasher() {
  thread_local ContentHasher hasher;
  return hasher;
}

}  // namespace

void CopyWorkers::create_target_directories() {
  FileIdSet source_folders(m_scan.directory_ids.begin(), m_scan.directory_ids.end());
  FolderOutcome outcome = m_folders.make_all(m_scan.directories, std::move(source_folders));
  if (outcome.kind == FolderOutcome::Kind::stop_overlap) return m_job.stop.refuse(outcome.message);
  if (outcome.kind == FolderOutcome::Kind::stop_io)
    return m_job.stop.fail(ErrorCode::io, outcome.folder, "creating the folder", outcome.error);
}

// An item the scan's resume check found already imported (and, with --verify or --move, whose
// copy still hashes as its record says) is skipped; with --move its source goes now.
bool CopyWorkers::skip_already_imported(const ScannedItem& item) {
  if (!item.already_imported) return false;
  // Only --verify and --move keep such items past the scan, and their index keeps whole records.
  std::optional<ManifestEntry> known = m_imported.lookup(item.path);
  if (!known) return false;
  auto hash = m_phases.copier.hash_in_target(item, worker_copy_buffer(), worker_hasher());
  if (!hash || *hash != known->hash) {
    spdlog::warn("{}: the copy in the target does not match the manifest; copying it again", display_path(item.path));
    return false;
  }
  m_job.progress.file_skipped(item.size);
  m_phases.mover.delete_source(item.path, *known, std::nullopt);
  return true;
}

// After an attempt that staged nothing: whether the item is done with (counted, reported or the
// job stopped) rather than tried again.
bool CopyWorkers::give_up_after(const ScannedItem& item, CopyOutcome outcome, int attempts) {
  switch (outcome) {
    case CopyOutcome::gave_up:
      m_job.progress.file_failed(item.size);
      return true;
    case CopyOutcome::retry:
      if (attempts < k_max_attempts) return false;
      m_job.problems.add(item.path, "changed",
                         fmt::format("the file kept changing while it was copied ({} attempts): not imported; the "
                                     "source is kept",
                                     attempts));
      m_job.progress.file_failed(item.size);
      return true;
    case CopyOutcome::durability_failed:
      if (attempts < k_max_attempts) return false;
      m_job.stop.fail(ErrorCode::io, item.path, "making the copy durable", EIO);
      return true;
    case CopyOutcome::staged:
    case CopyOutcome::stopped:
      return true;
  }
  return true;
}

void CopyWorkers::process_item(std::size_t index, int attempts) {
  const ScannedItem item = m_scan.items.at(index);
  if (!item.already_imported || m_options.verify || m_options.move)
    m_job.progress.set_current_file(display_path(item.path));
  if (attempts == 0) {  // first visit: skip what the scan's resume check found already imported
    attempts = 1;
    if (const FolderBlock* block = m_folders.blocked(parent_of(item.path))) {
      m_job.problems.add(item.path, block->kind, block->message);
      m_job.progress.file_failed(item.size);
      return;
    }
    if (skip_already_imported(item)) return;
  }
  while (!m_job.stop.stopping()) {
    Staged staged;
    staged.item = index;
    staged.attempts = attempts;
    CopyOutcome outcome = m_phases.copier.copy(item, staged, worker_copy_buffer(), worker_hasher());
    if (outcome == CopyOutcome::staged) return m_phases.committer.stage(std::move(staged));
    if (give_up_after(item, outcome, attempts)) return;
    ++attempts;
  }
}

void CopyWorkers::worker() {
  while (!m_job.stop.stopping()) {
    if (auto retry = m_phases.retries.pop()) {
      process_item(retry->item, retry->attempts);
      continue;
    }
    std::size_t index = m_next++;
    if (index >= m_scan.items.size()) break;
    process_item(index, 0);
  }
}

void CopyWorkers::run(unsigned jobs) {
  m_job.progress.set_phase(ImportPhase::copying);
  auto copy_start = std::chrono::steady_clock::now();
  create_target_directories();
  while (!m_job.stop.stopping()) {
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < jobs; ++i) threads.emplace_back([this] { worker(); });
    for (auto& t : threads) t.join();
    m_phases.committer.commit_all();
    if (m_phases.retries.empty()) break;
  }
  m_phases.committer.commit_all();
  auto copy_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - copy_start).count();
  spdlog::debug("copy: {} ms", copy_ms);
}

}  // namespace tfwsl::dataset::import_detail
