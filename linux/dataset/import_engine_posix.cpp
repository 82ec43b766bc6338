#include "linux/dataset/import_engine.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <thread>

#include <dirent.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset {
namespace {

namespace fs = std::filesystem;

long long elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
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

Status ImportJob::prepare() {
  TFWSL_TRY(paths, resolve_import_paths(m_options.source, m_options.target));
  m_paths = paths;
  // The resolved paths have no symlink left: opened without following one, a folder swapped for a
  // symlink since the checks (outside the agent's roots, say) is refused rather than used.
  auto open_error = [](const char* what, const fs::path& path, int error) {
    if (error == ELOOP)
      return make_error(ErrorCode::invalid_input,
                        fmt::format("{} '{}' changed since it was checked: a folder on its path is now a symlink, "
                                    "which the import does not follow; nothing was copied",
                                    what, path.string()));
    return make_error(error == EACCES || error == EPERM ? ErrorCode::permission
                      : error == ENOSPC || error == EDQUOT ? ErrorCode::no_space
                                                           : ErrorCode::io,
                      fmt::format("cannot open {} '{}': {}", what, path.string(), errno_text(error)));
  };
  m_source_fd = UniqueFd(open_folder_path(m_paths.source, false));
  if (!m_source_fd) return open_error("source", m_paths.source, errno);
  m_target_fd = UniqueFd(open_folder_path(m_paths.target, true));
  if (!m_target_fd) return open_error("target", m_paths.target, errno);
  // Again on what was opened: a path swapped between the check and the open is judged by inode.
  TFWSL_TRY_STATUS(check_disjoint_folders(m_source_fd.get(), m_target_fd.get(), m_options.source, m_options.target));
  m_folders = TargetFolders(m_target_fd.get());
  struct statfs source_fs {};
  if (::fstatfs(m_source_fd.get(), &source_fs) == 0) m_source_is_drvfs = source_fs.f_type == k_v9fs_magic;

  const std::string state_name(k_state_dir_name);
  auto state_error = [&](const char* doing) {
    int error = errno;
    return make_error(error == ENOSPC ? ErrorCode::no_space : error == EACCES ? ErrorCode::permission : ErrorCode::io,
                      fmt::format("cannot {} in target '{}': {}", doing, m_paths.target.string(), errno_text(error)));
  };
  if (::mkdirat(m_target_fd.get(), state_name.c_str(), 0700) != 0 && errno != EEXIST)
    return state_error("create the import state folder");
  m_state_fd = UniqueFd(open_beneath(m_target_fd.get(), state_name, O_RDONLY | O_DIRECTORY));
  if (!m_state_fd && errno == ELOOP)
    return make_error(ErrorCode::invalid_input,
                      fmt::format("'{}' in target '{}' is a symlink, which the import never follows: remove it (or "
                                  "choose another target) and run the import again",
                                  state_name, m_paths.target.string()));
  if (!m_state_fd) return state_error("open the import state folder");
  m_lock_fd = UniqueFd(::openat(m_state_fd.get(), "lock", O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!m_lock_fd) return state_error("create the import lock");
  if (::flock(m_lock_fd.get(), LOCK_EX | LOCK_NB) != 0)
    return make_error(ErrorCode::conflict,
                      fmt::format("another import into '{}' is running: wait for it to finish (or cancel it), "
                                  "then run this one",
                                  m_paths.target.string()));
  if (::mkdirat(m_state_fd.get(), "staging", 0700) != 0 && errno != EEXIST)
    return state_error("create the staging folder");
  m_staging_fd = UniqueFd(::openat(m_state_fd.get(), "staging", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
  if (!m_staging_fd) return state_error("open the staging folder");
  // Temporary files left by a crash are incomplete or not known durable: discarded, never renamed.
  clear_staging();

  std::string manifest_where = (m_paths.target / state_name / "manifest").string();
  UniqueFd existing(::openat(m_state_fd.get(), "manifest", O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  bool manifest_clean = false;
  if (existing) {
    std::string text;
    std::vector<char> buffer(1 << 16);
    while (true) {
      ssize_t n = ::read(existing.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        return make_error(ErrorCode::io, fmt::format("cannot read the import manifest {}: {}", manifest_where,
                                                     errno_text(errno)));
      if (n == 0) break;
      text.append(buffer.data(), static_cast<std::size_t>(n));
    }
    TFWSL_TRY(entries, parse_manifest(text, manifest_where));
    m_manifest = std::move(entries);
    manifest_clean = !text.empty() && text.back() == '\n';
  } else if (errno != ENOENT) {
    return state_error("open the import manifest");
  }
  // A new manifest, or one whose last record was cut short by a crash, is rewritten whole (temp,
  // fsync, rename) so that appends never land after a partial line. A clean one is appended to.
  if (!manifest_clean) TFWSL_TRY_STATUS(write_compacted_manifest());
  m_manifest_fd = UniqueFd(::openat(m_state_fd.get(), "manifest", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW));
  if (!m_manifest_fd) return state_error("open the import manifest for appending");
  return {};
}

Status ImportJob::write_compacted_manifest() {
  ManifestEntries all = m_manifest;
  {
    std::lock_guard lock(m_entries_mutex);
    for (const auto& [path, entry] : m_new_entries) all[path] = entry;
  }
  std::string text = format_manifest(all);
  auto error = [&](const char* doing, int e) {
    return make_error(e == ENOSPC || e == EDQUOT ? ErrorCode::no_space : ErrorCode::io,
                      fmt::format("cannot {} the import manifest in '{}': {}", doing, m_paths.target.string(),
                                  errno_text(e)));
  };
  UniqueFd fd(::openat(m_state_fd.get(), "manifest.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) return error("create", errno);
  int e = fault("manifest", "");
  if (e == 0) e = write_all(fd.get(), text.data(), text.size());
  if (e != 0) {
    ::unlinkat(m_state_fd.get(), "manifest.tmp", 0);
    return error("write", e);
  }
  if (::fsync(fd.get()) != 0 || fd.close_checked() != 0) {
    int e = errno;
    ::unlinkat(m_state_fd.get(), "manifest.tmp", 0);
    return error("make durable", e);
  }
  if (::renameat(m_state_fd.get(), "manifest.tmp", m_state_fd.get(), "manifest") != 0) return error("replace", errno);
  if (::fsync(m_state_fd.get()) != 0) return error("make durable", errno);
  return {};
}

void ImportJob::clear_staging() {
  int fd = ::openat(m_staging_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    ::close(fd);
    return;
  }
  std::vector<std::string> names;
  while (dirent* entry = ::readdir(dir)) {
    std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  ::closedir(dir);
  for (const auto& name : names)
    if (::unlinkat(m_staging_fd.get(), name.c_str(), 0) != 0) spdlog::warn("cannot remove staging file {}", name);
}

Status ImportJob::preflight_space() {
  std::uint64_t need = 0, files = 0;
  for (const auto& item : m_scan.items) {
    // Already in the target. (A copy that --verify finds damaged is recopied without being counted.)
    if (item.already_imported) continue;
    need += (item.size + 4095) / 4096 * 4096 + 4096;  // whole blocks, plus the inode and directory entry
    ++files;
  }
  need += m_scan.directories.size() * 4096;
  struct statvfs vfs {};
  if (::fstatvfs(m_target_fd.get(), &vfs) != 0) return {};  // nothing to judge by: ENOSPC will still stop cleanly
  std::uint64_t available = static_cast<std::uint64_t>(vfs.f_bavail) * vfs.f_frsize;
  std::uint64_t fs_bytes = static_cast<std::uint64_t>(vfs.f_blocks) * vfs.f_frsize;
  std::uint64_t margin = std::clamp(fs_bytes / 50, k_space_margin_min, k_space_margin_max) + need / 100;
  spdlog::info("preflight: {} files, {} to write, {} free on the target", files, format_bytes(double(need)),
               format_bytes(double(available)));
  if (available < need + margin)
    return make_error(ErrorCode::no_space,
                      fmt::format("not enough free space on the target filesystem of '{}': {} free, this import needs "
                                  "{} plus a safety margin of {}. Free at least {} there or choose another target; "
                                  "nothing was copied",
                                  m_paths.target.string(), format_bytes(double(available)), format_bytes(double(need)),
                                  format_bytes(double(margin)), format_bytes(double(need + margin - available))));
  if (vfs.f_favail != 0 && vfs.f_files != 0 && vfs.f_favail < files + m_scan.directories.size())
    return make_error(ErrorCode::no_space,
                      fmt::format("not enough free inodes on the target filesystem of '{}': {} free, this import "
                                  "needs {}; nothing was copied",
                                  m_paths.target.string(), vfs.f_favail, files + m_scan.directories.size()));
  return {};
}

void ImportJob::create_target_directories() {
  FileIdSet source_folders(m_scan.directory_ids.begin(), m_scan.directory_ids.end());
  FolderOutcome outcome = m_folders.make_all(m_scan.directories, std::move(source_folders));
  if (outcome.kind == FolderOutcome::Kind::stop_overlap) return refuse(outcome.message);
  if (outcome.kind == FolderOutcome::Kind::stop_io)
    return fail(ErrorCode::io, outcome.folder, "creating the folder", outcome.error);
}

bool ImportJob::target_present(const ScannedItem& item, std::uint64_t size) {
  return m_folders.present(item.path, item.kind == ItemKind::symlink, size);
}

void ImportJob::process_item(std::size_t index, int attempts) {
  const ScannedItem& item = m_scan.items[index];
  thread_local std::unique_ptr<char[]> buffer;
  thread_local ContentHasher hasher;
  // Allocated on first real use (a re-run that only skips files never needs it) and left
  // uninitialised, so that its pages count in the RSS only once a file large enough touches them:
  // a worker that copies 64 KiB files uses 64 KiB of it, not 1 MiB.
  auto ready_buffer = [&]() -> std::span<char> {
    if (!buffer) buffer.reset(new char[k_buffer_bytes]);
    return {buffer.get(), k_buffer_bytes};
  };

  if (!item.already_imported || m_options.verify || m_options.move)
    m_progress.set_current_file(display_path(item.path));
  if (attempts == 0) {  // first visit: skip what the scan's resume check found already imported
    attempts = 1;
    if (const FolderBlock* block = m_folders.blocked(parent_of(item.path))) {
      add_problem(item.path, block->kind, block->message);
      m_progress.file_failed(item.size);
      return;
    }
    auto known = m_manifest.find(item.path);
    if (item.already_imported && known != m_manifest.end()) {
      bool good = true;
      if (m_options.verify || m_options.move) {
        auto hash = hash_target(item, ready_buffer(), hasher);
        good = hash && *hash == known->second.hash;
        if (!good)
          spdlog::warn("{}: the copy in the target does not match the manifest; copying it again",
                       display_path(item.path));
      }
      if (good) {
        m_progress.file_skipped(item.size);
        if (m_options.move) delete_source(item.path, known->second, std::nullopt);
        return;
      }
    }
  }
  while (!stopping()) {
    Staged staged;
    staged.item = index;
    staged.attempts = attempts;
    CopyOutcome outcome =
        item.kind == ItemKind::symlink ? copy_symlink(item, staged) : copy_file(item, staged, ready_buffer(), hasher);
    switch (outcome) {
      case CopyOutcome::staged:
        stage(std::move(staged));
        return;
      case CopyOutcome::gave_up:
        m_progress.file_failed(item.size);
        return;
      case CopyOutcome::stopped:
        return;
      case CopyOutcome::retry:
        if (attempts >= k_max_attempts) {
          add_problem(item.path, "changed",
                      fmt::format("the file kept changing while it was copied ({} attempts): not imported; the "
                                  "source is kept",
                                  attempts));
          m_progress.file_failed(item.size);
          return;
        }
        break;
      case CopyOutcome::durability_failed:
        if (attempts >= k_max_attempts) return fail(ErrorCode::io, item.path, "making the copy durable", EIO);
        break;
    }
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

Result<ImportReport> ImportJob::run() {
  m_progress.set_phase(ImportPhase::starting);
  auto start = std::chrono::steady_clock::now();
  TFWSL_TRY_STATUS(prepare());
  spdlog::debug("prepare (lock, staging, manifest of {} records): {} ms", m_manifest.size(), elapsed_ms(start));
  unsigned jobs = std::clamp(m_options.jobs, 1u, k_max_jobs);

  m_progress.set_phase(ImportPhase::scanning);
  ScanOptions scan;
  scan.threads = std::max(jobs, k_default_scan_threads);
  // Resume check, on the scan's threads: a file is already imported when its record matches the
  // source's size and mtime and the target holds a file (or symlink) of that size.
  if (!m_manifest.empty() || m_options.fault_hook)
    scan.visit = [this](ScannedItem& item) {
      fault("scan", item.path);
      auto known = m_manifest.find(item.path);
      item.already_imported = known != m_manifest.end() && known->second.size == item.size &&
                              known->second.mtime_ns == item.mtime_ns && target_present(item, item.size);
    };
  auto scan_start = std::chrono::steady_clock::now();
  m_scan = scan_tree(m_source_fd.get(), scan, m_cancel, m_progress);
  spdlog::debug("scan: {} files and symlinks, {} folders, {} problems in {} ms ({} threads)", m_scan.items.size(),
                m_scan.directories.size(), m_scan.problems.size(), elapsed_ms(scan_start), scan.threads);
  if (m_cancel.cancelled()) return make_error(ErrorCode::cancelled, "the import was cancelled during the scan");
  for (auto& problem : m_scan.problems) add_problem(problem.path, problem.kind, problem.message);
  for (const auto& item : m_scan.items)
    if (m_report.unusual_names.size() < k_max_listed_unusual && is_windows_unfriendly_name(leaf_of(item.path)))
      m_report.unusual_names.push_back(item.path);
  // Large files first: they overlap with the many small ones instead of trailing at the end.
  std::stable_sort(m_scan.items.begin(), m_scan.items.end(), [](const ScannedItem& a, const ScannedItem& b) {
    return (a.size >= k_own_fsync_bytes) > (b.size >= k_own_fsync_bytes);
  });
  if (!m_options.skip_space_check) TFWSL_TRY_STATUS(preflight_space());

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
  maybe_commit(true);  // after a stop: what is complete is still committed

  spdlog::debug("copy: {} ms", elapsed_ms(copy_start));
  m_progress.set_phase(ImportPhase::finishing);
  if (!stopping() && m_options.move) remove_emptied_source_directories();
  clear_staging();
  // Compaction only drops records that a later one for the same path replaced: a no-op re-run
  // writes nothing.
  bool superseded = false;
  {
    std::lock_guard lock(m_entries_mutex);
    for (const auto& [path, entry] : m_new_entries) superseded = superseded || m_manifest.count(path) > 0;
  }
  Status compacted = superseded ? write_compacted_manifest() : Status{};
  if (m_cancel.cancelled() && !m_failed)
    return make_error(ErrorCode::cancelled,
                      "the import was cancelled; files already imported are intact: run it again to resume");
  if (m_failed) return tl::unexpected(stop_error());
  if (!compacted) return tl::unexpected(compacted.error());
  m_progress.set_phase(ImportPhase::done);
  m_report.totals = m_progress.snapshot();
  return m_report;
}

}  // namespace import_detail

Result<ImportReport> run_import(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel) {
  import_detail::ImportJob job(options, progress, cancel);
  return job.run();
}

}  // namespace tfwsl::dataset
