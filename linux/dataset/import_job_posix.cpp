// The job from start to end: prepare, scan, the workers that copy each item (retrying a file
// that changed or failed to become durable), the final commit, --move's folder clean-up, and the
// error that a stop is reported with.
#include "linux/dataset/import_engine.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <thread>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset {
namespace {

long long job_elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

// Each worker's buffer, allocated on first real use (a re-run that only skips files never needs
// it) and left uninitialised, so that its pages count in the RSS only once a file large enough
// touches them: a worker that copies 64 KiB files uses 64 KiB of it, not 1 MiB.
std::span<char> worker_copy_buffer() {
  thread_local std::unique_ptr<char[]> buffer;
  if (!buffer) buffer.reset(new char[import_detail::k_buffer_bytes]);
  return {buffer.get(), import_detail::k_buffer_bytes};
}

ContentHasher& worker_hasher() {
  thread_local ContentHasher hasher;
  return hasher;
}

}  // namespace

namespace import_detail {

void ImportJob::add_problem(const std::string& path, std::string kind, std::string message) {
  m_progress.problem();
  spdlog::warn("{}: {}", display_path(path), message);
  std::lock_guard lock(m_problem_mutex);
  if (m_report.problems.size() < k_max_listed_problems)
    m_report.problems.push_back({path, std::move(kind), std::move(message)});
  else
    ++m_report.problems_not_listed;
}

void ImportJob::fail(ErrorCode code, const std::string& path, const std::string& doing, int error) {
  std::lock_guard lock(m_fail_mutex);
  if (m_stop || m_error) return;
  if (error == ENOSPC || error == EDQUOT) code = ErrorCode::no_space;
  std::string what = path.empty() ? doing : fmt::format("{} '{}'", doing, display_path(path));
  m_stop = StopCause{code, what, errno_text(error), error == EIO || error == EROFS};
  m_failed = true;
}

void ImportJob::refuse(std::string message) {
  std::lock_guard lock(m_fail_mutex);
  if (m_stop || m_error) return;
  m_error = Error{ErrorCode::invalid_input, std::move(message), {}, {}};
  m_failed = true;
}

// Called once every worker has stopped and the last batch is committed: the counts are final.
Error ImportJob::stop_error() {
  std::lock_guard lock(m_fail_mutex);
  if (m_error) return *m_error;
  StopState state{m_paths.target.string(), m_options.move, m_progress.snapshot().files_moved};
  return Error{m_stop->code, stop_message(*m_stop, state), m_stop->error_text, {}};
}

// An item the scan's resume check found already imported (and, with --verify or --move, whose
// copy still hashes as its record says) is skipped; with --move its source goes now.
bool ImportJob::skip_already_imported(const ScannedItem& item) {
  auto known = m_manifest.find(item.path);
  if (!item.already_imported || known == m_manifest.end()) return false;
  if (m_options.verify || m_options.move) {
    auto hash = hash_target(item, worker_copy_buffer(), worker_hasher());
    if (!hash || *hash != known->second.hash) {
      spdlog::warn("{}: the copy in the target does not match the manifest; copying it again", display_path(item.path));
      return false;
    }
  }
  m_progress.file_skipped(item.size);
  if (m_options.move) delete_source(item.path, known->second, std::nullopt);
  return true;
}

// After an attempt that staged nothing: whether the item is done with (counted, reported or the
// job stopped) rather than tried again.
bool ImportJob::give_up_after(const ScannedItem& item, CopyOutcome outcome, int attempts) {
  switch (outcome) {
    case CopyOutcome::gave_up:
      m_progress.file_failed(item.size);
      return true;
    case CopyOutcome::retry:
      if (attempts < k_max_attempts) return false;
      add_problem(item.path, "changed",
                  fmt::format("the file kept changing while it was copied ({} attempts): not imported; the "
                              "source is kept",
                              attempts));
      m_progress.file_failed(item.size);
      return true;
    case CopyOutcome::durability_failed:
      if (attempts < k_max_attempts) return false;
      fail(ErrorCode::io, item.path, "making the copy durable", EIO);
      return true;
    case CopyOutcome::staged:
    case CopyOutcome::stopped:
      return true;
  }
  return true;
}

void ImportJob::process_item(std::size_t index, int attempts) {
  const ScannedItem& item = m_scan.items[index];
  if (!item.already_imported || m_options.verify || m_options.move)
    m_progress.set_current_file(display_path(item.path));
  if (attempts == 0) {  // first visit: skip what the scan's resume check found already imported
    attempts = 1;
    if (const FolderBlock* block = m_folders.blocked(parent_of(item.path))) {
      add_problem(item.path, block->kind, block->message);
      m_progress.file_failed(item.size);
      return;
    }
    if (skip_already_imported(item)) return;
  }
  while (!stopping()) {
    Staged staged;
    staged.item = index;
    staged.attempts = attempts;
    CopyOutcome outcome = item.kind == ItemKind::symlink
                              ? copy_symlink(item, staged)
                              : copy_file(item, staged, worker_copy_buffer(), worker_hasher());
    if (outcome == CopyOutcome::staged) return stage(std::move(staged));
    if (give_up_after(item, outcome, attempts)) return;
    ++attempts;
  }
}

void ImportJob::worker() {
  while (!stopping()) {
    std::optional<std::pair<std::size_t, int>> retry;
    {
      std::lock_guard lock(m_retry_mutex);
      if (!m_retry.empty()) {
        retry = m_retry.front();
        m_retry.pop_front();
      }
    }
    if (retry) {
      process_item(retry->first, retry->second);
      continue;
    }
    std::size_t index = m_next++;
    if (index >= m_scan.items.size()) break;
    process_item(index, 0);
  }
}

// The workers run until every item is done; files a failed syncfs sent back are retried in
// another round. What is complete after a stop is still committed.
void ImportJob::copy_all(unsigned jobs) {
  m_progress.set_phase(ImportPhase::copying);
  auto copy_start = std::chrono::steady_clock::now();
  create_target_directories();
  while (!stopping()) {
    std::vector<std::thread> threads;
    for (unsigned i = 0; i < jobs; ++i) threads.emplace_back([this] { worker(); });
    for (auto& t : threads) t.join();
    maybe_commit(true);
    std::lock_guard lock(m_retry_mutex);
    if (m_retry.empty()) break;
  }
  maybe_commit(true);
  spdlog::debug("copy: {} ms", job_elapsed_ms(copy_start));
}

Result<ImportReport> ImportJob::finish() {
  m_progress.set_phase(ImportPhase::finishing);
  if (!stopping() && m_options.move) remove_emptied_source_directories();
  clear_staging();
  Status compacted = compact_manifest_if_superseded();
  if (m_cancel.cancelled() && !m_failed)
    return make_error(ErrorCode::cancelled,
                      "the import was cancelled; files already imported are intact: run it again to resume");
  if (m_failed) return tl::unexpected(stop_error());
  if (!compacted) return tl::unexpected(compacted.error());
  m_progress.set_phase(ImportPhase::done);
  m_report.totals = m_progress.snapshot();
  return m_report;
}

Result<ImportReport> ImportJob::run() {
  m_progress.set_phase(ImportPhase::starting);
  auto start = std::chrono::steady_clock::now();
  TFWSL_TRY_STATUS(prepare());
  spdlog::debug("prepare (lock, staging, manifest of {} records): {} ms", m_manifest.size(), job_elapsed_ms(start));
  unsigned jobs = std::clamp(m_options.jobs, 1u, k_max_jobs);
  TFWSL_TRY_STATUS(scan_source(jobs));
  copy_all(jobs);
  return finish();
}

}  // namespace import_detail

Result<ImportReport> run_import(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel) {
  import_detail::ImportJob job(options, progress, cancel);
  return job.run();
}

}  // namespace tfwsl::dataset
