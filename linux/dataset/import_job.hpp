#pragma once
// The copy engine's job, shared by its phases, one file each: import_prepare_posix.cpp (the roots,
// the state folder, the lock), import_manifest_file_posix.cpp (loading and rewriting the manifest),
// import_scan_posix.cpp (the scan, the space preflight, the target folders), import_copy_posix.cpp
// (one file or symlink into staging, verified), import_commit_posix.cpp (the batch commit),
// import_move_posix.cpp (--move's deletions) and import_job_posix.cpp (the workers and the run).
// Every filesystem call that can fail mid-job goes through m_files (import_files.hpp). Internal
// to the engine: everyone else calls run_import (import_engine.hpp). POSIX only.

#include <sys/types.h>
#include <sys/stat.h>
#include <time.h>

#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "common/core/error.hpp"
#include "linux/dataset/content_hash.hpp"
#include "linux/dataset/import_files.hpp"
#include "linux/dataset/import_stop.hpp"
#include "linux/dataset/import_types.hpp"
#include "linux/dataset/manifest.hpp"
#include "linux/dataset/path_policy.hpp"
#include "linux/dataset/posix_files.hpp"
#include "linux/dataset/progress.hpp"
#include "linux/dataset/target_folders.hpp"
#include "linux/dataset/tree_scan.hpp"

namespace tfwsl::dataset::import_detail {

inline constexpr std::size_t k_buffer_bytes = 1 << 20;
// Files this large get their own fsync as soon as they are written (their data dominates); smaller
// ones share one syncfs per batch, since an fsync per small file costs more than copying it.
inline constexpr std::uint64_t k_own_fsync_bytes = 4ull << 20;
// Large files go through copy_file_range when the kernel allows it between these filesystems.
inline constexpr std::uint64_t k_copy_range_min_bytes = 8ull << 20;
inline constexpr std::size_t k_copy_range_chunk = 8u << 20;
inline constexpr std::size_t k_batch_files = 512;
inline constexpr std::uint64_t k_batch_bytes = 64ull << 20;
inline constexpr int k_max_attempts = 3;
// Free-space margin: 2 % of the filesystem, at least 1 MiB and at most 256 MiB, plus 1 % of the data.
inline constexpr std::uint64_t k_space_margin_min = 1ull << 20;
inline constexpr std::uint64_t k_space_margin_max = 256ull << 20;
inline constexpr std::size_t k_max_listed_problems = 1000;
inline constexpr std::size_t k_max_listed_unusual = 200;
inline constexpr long k_v9fs_magic = 0x01021997;  // DrvFs (/mnt/c) in WSL 2 is a 9P mount

inline std::int64_t to_ns(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

// A file complete under its temporary name in the staging folder, waiting for its batch commit.
struct Staged {
  std::size_t item = 0;
  std::string temp_name;
  ManifestEntry entry;
  bool synced = false;  // had its own fsync
  dev_t source_dev = 0;
  ino_t source_ino = 0;
  int attempts = 1;
};

enum class CopyOutcome { staged, retry, durability_failed, gave_up, stopped };

// One file's copy in progress: its source, its temporary file in staging and how much is copied.
struct FileCopy {
  const ScannedItem& item;
  int source = -1;
  struct stat before {};
  UniqueFd temp;
  std::string temp_name;
  std::uint64_t copied = 0;
};

// One chunk of a copy: its bytes (0 at the end), or the outcome the file's copy ends with, or
// that copy_file_range cannot be used between these filesystems.
struct CopiedChunk {
  std::size_t bytes = 0;
  std::optional<CopyOutcome> outcome;
  bool range_unsupported = false;
};

class ImportJob {
 public:
  ImportJob(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel)
      : m_options(options),
        m_progress(progress),
        m_cancel(cancel),
        m_files(options.files ? *options.files : posix_import_files(), options.fault_hook) {}

  Result<ImportReport> run();

 private:
  // prepare
  Status prepare();
  Status open_roots();
  Status open_state_folder();
  Status check_state_folder_owner() const;
  Status lock_and_open_staging();
  Error state_error(const char* doing) const;
  void clear_staging();
  // manifest
  Status open_manifest();
  Result<bool> load_manifest();  // true: it ends with a whole record (appends may follow)
  Status require_regular_manifest(int fd, const std::string& where) const;
  Status write_compacted_manifest();
  Status compact_manifest_if_superseded();
  // scan
  Status scan_source(unsigned jobs);
  Status preflight_space();
  void create_target_directories();
  // job
  void copy_all(unsigned jobs);
  void worker();
  void process_item(std::size_t index, int attempts);
  bool skip_already_imported(const ScannedItem& item);
  bool give_up_after(const ScannedItem& item, CopyOutcome outcome, int attempts);
  Result<ImportReport> finish();
  // copy
  CopyOutcome copy_file(const ScannedItem& item, Staged& staged, std::span<char> buffer, ContentHasher& hasher);
  UniqueFd open_source_file(const ScannedItem& item, struct stat& before);
  std::optional<CopyOutcome> copy_contents(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  CopiedChunk copy_range_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  CopiedChunk copy_buffered_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher);
  bool source_changed(const FileCopy& copy) const;
  std::optional<CopyOutcome> make_copy_durable(FileCopy& copy, Staged& staged);
  bool copy_reads_back(const FileCopy& copy, const std::string& source_hash, std::span<char> buffer,
                       ContentHasher& hasher);
  void discard_copy(FileCopy& copy);
  std::string next_temp_name() { return std::to_string(m_temp_seq++) + ".tmp"; }
  CopyOutcome copy_symlink(const ScannedItem& item, Staged& staged);
  std::optional<std::string> hash_target(const ScannedItem& item, std::span<char> buffer, ContentHasher& hasher);
  bool target_present(const ScannedItem& item, std::uint64_t size);
  void stage(Staged staged);
  void maybe_commit(bool force);
  void commit(std::vector<Staged> batch);
  bool sync_batch(std::vector<Staged>& batch);
  std::vector<Staged> rename_into_place(std::vector<Staged>& batch, std::map<std::string, UniqueFd>& folders);
  void commit_records(const std::vector<Staged>& renamed);
  // move
  void delete_source(const std::string& path, const ManifestEntry& copied, std::optional<std::pair<dev_t, ino_t>> id);
  void remove_emptied_source_directories();
  UniqueFd open_source_folder(const std::string& folder);

  void add_problem(const std::string& path, std::string kind, std::string message);
  void fail(ErrorCode code, const std::string& path, const std::string& doing, int error);
  void refuse(std::string message);
  Error stop_error();
  bool stopping() const { return m_cancel.cancelled() || m_failed.load(); }
  void scan_hook(const std::string& path) const {
    if (m_options.fault_hook) m_options.fault_hook("scan", path);
  }
  mode_t target_mode(const ScannedItem& item) const {
    bool executable = !m_source_is_drvfs && (item.mode & S_IXUSR);
    return executable ? 0755 : 0644;
  }

  const ImportOptions& m_options;
  ProgressTracker& m_progress;
  const CancelToken& m_cancel;
  HookedImportFiles m_files;

  ResolvedImportPaths m_paths;
  UniqueFd m_source_fd, m_target_fd, m_state_fd, m_staging_fd, m_lock_fd, m_manifest_fd;
  bool m_source_is_drvfs = false;
  ManifestEntries m_manifest;  // as loaded; new records go to m_new_entries
  ScanResult m_scan;
  TargetFolders m_folders;

  std::atomic<std::size_t> m_next{0};
  std::atomic<std::uint64_t> m_temp_seq{0};
  std::atomic<bool> m_copy_range_ok{true};

  std::mutex m_retry_mutex;
  std::deque<std::pair<std::size_t, int>> m_retry;  // (item, attempts so far)

  std::mutex m_pending_mutex;
  std::vector<Staged> m_pending;
  std::uint64_t m_pending_unsynced_bytes = 0;
  std::mutex m_commit_mutex;

  std::mutex m_entries_mutex;
  ManifestEntries m_new_entries;

  std::mutex m_problem_mutex;
  ImportReport m_report;

  std::atomic<bool> m_failed{false};
  std::mutex m_fail_mutex;
  std::optional<StopCause> m_stop;  // a full disk or an I/O error: described once the job wound down
  std::optional<Error> m_error;     // any other stop (overlap found mid-run)
};

}  // namespace tfwsl::dataset::import_detail
