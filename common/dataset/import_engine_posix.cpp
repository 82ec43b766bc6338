#include "common/dataset/import_engine.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <iterator>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <span>
#include <thread>

#include <dirent.h>
#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/dataset/content_hash.hpp"
#include "common/dataset/import_stop.hpp"
#include "common/dataset/manifest.hpp"
#include "common/dataset/path_policy.hpp"
#include "common/dataset/posix_files.hpp"
#include "common/dataset/target_folders.hpp"
#include "common/dataset/tree_scan.hpp"

namespace tfwsl::dataset {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t k_buffer_bytes = 1 << 20;
// Files this large get their own fsync as soon as they are written (their data dominates); smaller
// ones share one syncfs per batch, since an fsync per small file costs more than copying it.
constexpr std::uint64_t k_own_fsync_bytes = 4ull << 20;
// Large files go through copy_file_range when the kernel allows it between these filesystems.
constexpr std::uint64_t k_copy_range_min_bytes = 8ull << 20;
constexpr std::size_t k_copy_range_chunk = 8u << 20;
constexpr std::size_t k_batch_files = 512;
constexpr std::uint64_t k_batch_bytes = 64ull << 20;
constexpr int k_max_attempts = 3;
// Free-space margin: 2 % of the filesystem, at least 1 MiB and at most 256 MiB, plus 1 % of the data.
constexpr std::uint64_t k_space_margin_min = 1ull << 20;
constexpr std::uint64_t k_space_margin_max = 256ull << 20;
constexpr std::size_t k_max_listed_problems = 1000;
constexpr std::size_t k_max_listed_unusual = 200;
constexpr long k_v9fs_magic = 0x01021997;  // DrvFs (/mnt/c) in WSL 2 is a 9P mount

long long elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - since).count();
}

std::int64_t to_ns(const timespec& t) { return static_cast<std::int64_t>(t.tv_sec) * 1'000'000'000 + t.tv_nsec; }

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

class ImportJob {
 public:
  ImportJob(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel)
      : m_options(options), m_progress(progress), m_cancel(cancel) {}

  Result<ImportReport> run();

 private:
  Status prepare();
  Status preflight_space();
  void create_target_directories();
  void worker();
  void process_item(std::size_t index, int attempts);
  CopyOutcome copy_file(const ScannedItem& item, Staged& staged, std::span<char> buffer, ContentHasher& hasher);
  CopyOutcome copy_symlink(const ScannedItem& item, Staged& staged);
  std::optional<std::string> hash_target(const ScannedItem& item, std::span<char> buffer, ContentHasher& hasher);
  bool target_present(const ScannedItem& item, std::uint64_t size);
  void stage(Staged staged);
  void maybe_commit(bool force);
  void commit(std::vector<Staged> batch);
  bool sync_batch(std::vector<Staged>& batch);
  std::vector<Staged> rename_into_place(std::vector<Staged>& batch, std::map<std::string, UniqueFd>& folders);
  void delete_source(const std::string& path, const ManifestEntry& copied, std::optional<std::pair<dev_t, ino_t>> id);
  void remove_emptied_source_directories();
  Status write_compacted_manifest();
  void clear_staging();

  void add_problem(const std::string& path, std::string kind, std::string message);
  void fail(ErrorCode code, const std::string& path, const std::string& doing, int error);
  void refuse(std::string message);
  Error stop_error();
  bool stopping() const { return m_cancel.cancelled() || m_failed.load(); }
  int fault(std::string_view step, const std::string& path) const {
    return m_options.fault_hook ? m_options.fault_hook(step, path) : 0;
  }
  mode_t target_mode(const ScannedItem& item) const {
    bool executable = !m_source_is_drvfs && (item.mode & S_IXUSR);
    return executable ? 0755 : 0644;
  }

  const ImportOptions& m_options;
  ProgressTracker& m_progress;
  const CancelToken& m_cancel;

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

std::optional<std::string> ImportJob::hash_target(const ScannedItem& item, std::span<char> buffer,
                                                  ContentHasher& hasher) {
  hasher.reset();
  if (item.kind == ItemKind::symlink) {
    UniqueFd parent(parent_of(item.path).empty()
                        ? ::openat(m_target_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                        : open_beneath(m_target_fd.get(), parent_of(item.path), O_RDONLY | O_DIRECTORY));
    if (!parent) return std::nullopt;
    ssize_t n = ::readlinkat(parent.get(), leaf_of(item.path).c_str(), buffer.data(), buffer.size());
    if (n < 0) return std::nullopt;
    hasher.update(buffer.data(), static_cast<std::size_t>(n));
    return hasher.hex_digest();
  }
  UniqueFd fd(open_beneath(m_target_fd.get(), item.path, O_RDONLY));
  if (!fd) return std::nullopt;
  while (true) {
    ssize_t n = ::read(fd.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return std::nullopt;
    if (n == 0) break;
    hasher.update(buffer.data(), static_cast<std::size_t>(n));
  }
  return hasher.hex_digest();
}

CopyOutcome ImportJob::copy_symlink(const ScannedItem& item, Staged& staged) {
  std::string parent = parent_of(item.path);
  UniqueFd parent_fd(parent.empty() ? ::openat(m_source_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                    : open_beneath(m_source_fd.get(), parent, O_RDONLY | O_DIRECTORY));
  if (!parent_fd) {
    add_problem(item.path, errno == ENOENT ? "vanished" : "unreadable",
                "cannot open the symlink's folder: " + errno_text(errno));
    return CopyOutcome::gave_up;
  }
  std::string leaf = leaf_of(item.path);
  struct stat before {};
  if (::fstatat(parent_fd.get(), leaf.c_str(), &before, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(before.st_mode)) {
    add_problem(item.path, "vanished", "the symlink vanished or changed type since the scan");
    return CopyOutcome::gave_up;
  }
  std::string text(static_cast<std::size_t>(before.st_size) + 2, '\0');
  ssize_t n = ::readlinkat(parent_fd.get(), leaf.c_str(), text.data(), text.size());
  if (n < 0 || static_cast<std::size_t>(n) != static_cast<std::size_t>(before.st_size)) return CopyOutcome::retry;
  text.resize(static_cast<std::size_t>(n));
  staged.temp_name = std::to_string(m_temp_seq++) + ".tmp";
  if (::symlinkat(text.c_str(), m_staging_fd.get(), staged.temp_name.c_str()) != 0) {
    fail(ErrorCode::io, item.path, "creating the symlink", errno);
    return CopyOutcome::stopped;
  }
  timespec times[2] = {before.st_atim, before.st_mtim};
  ::utimensat(m_staging_fd.get(), staged.temp_name.c_str(), times, AT_SYMLINK_NOFOLLOW);
  staged.entry = ManifestEntry{item.path, static_cast<std::uint64_t>(n), to_ns(before.st_mtim), hash_bytes(text)};
  staged.source_dev = before.st_dev;
  staged.source_ino = before.st_ino;
  return CopyOutcome::staged;
}

CopyOutcome ImportJob::copy_file(const ScannedItem& item, Staged& staged, std::span<char> buffer,
                                 ContentHasher& hasher) {
  UniqueFd source(open_beneath(m_source_fd.get(), item.path, O_RDONLY | O_NOFOLLOW));
  if (!source) {
    int error = errno;
    if (error == ENOENT)
      add_problem(item.path, "vanished", "the file vanished since the scan: skipped");
    else if (error == EACCES || error == EPERM)
      add_problem(item.path, "unreadable", "cannot open the file: " + errno_text(error));
    else if (error == ELOOP || error == EXDEV)
      add_problem(item.path, "changed", "the path now goes through a symlink: not followed, skipped");
    else
      add_problem(item.path, "unreadable", "cannot open the file: " + errno_text(error));
    return CopyOutcome::gave_up;
  }
  struct stat before {};
  if (::fstat(source.get(), &before) != 0 || !S_ISREG(before.st_mode)) {
    add_problem(item.path, "changed", "no longer a regular file: skipped");
    return CopyOutcome::gave_up;
  }
  staged.temp_name = std::to_string(m_temp_seq++) + ".tmp";
  UniqueFd temp(::openat(m_staging_fd.get(), staged.temp_name.c_str(),
                         O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!temp) {
    fail(ErrorCode::io, item.path, "creating its temporary file", errno);
    return CopyOutcome::stopped;
  }
  auto discard = [&] {
    temp.reset();
    ::unlinkat(m_staging_fd.get(), staged.temp_name.c_str(), 0);
  };
  hasher.reset();
  std::uint64_t copied = 0;
  const char* write_step = static_cast<std::uint64_t>(before.st_size) >= k_own_fsync_bytes ? "write-large" : "write";
  bool use_range = m_copy_range_ok && static_cast<std::uint64_t>(before.st_size) >= k_copy_range_min_bytes;
  while (true) {
    if (stopping()) {
      discard();
      m_progress.uncount_copied_bytes(copied);
      return CopyOutcome::stopped;
    }
    std::size_t got = 0;
    if (use_range) {
      loff_t in_off = static_cast<loff_t>(copied), out_off = static_cast<loff_t>(copied);
      int hook = fault(write_step, item.path);
      ssize_t n = hook ? (errno = hook, -1)
                       : ::copy_file_range(source.get(), &in_off, temp.get(), &out_off, k_copy_range_chunk, 0);
      if (n < 0 && copied == 0 &&
          (errno == EXDEV || errno == EINVAL || errno == ENOSYS || errno == EOPNOTSUPP || errno == EBADF)) {
        m_copy_range_ok = false;  // not between these filesystems: plain read/write from here on
        use_range = false;
        continue;
      }
      if (n < 0) {
        int error = errno;
        discard();
        m_progress.uncount_copied_bytes(copied);
        fail(ErrorCode::io, item.path, "copying", error);
        return CopyOutcome::stopped;
      }
      if (n == 0) break;
      // Hash what was copied: the source range is in the page cache now; the verify pass compares
      // this against a re-read of the copy, so a range that changed in between is caught.
      std::size_t hashed = 0;
      while (hashed < static_cast<std::size_t>(n)) {
        std::size_t want = std::min(buffer.size(), static_cast<std::size_t>(n) - hashed);
        ssize_t r = ::pread(source.get(), buffer.data(), want, static_cast<off_t>(copied + hashed));
        if (r <= 0) break;
        hasher.update(buffer.data(), static_cast<std::size_t>(r));
        hashed += static_cast<std::size_t>(r);
      }
      got = static_cast<std::size_t>(n);
    } else {
      ssize_t n = ::read(source.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) {
        int error = errno;
        discard();
        m_progress.uncount_copied_bytes(copied);
        add_problem(item.path, "unreadable", "reading the source failed: " + errno_text(error));
        return CopyOutcome::gave_up;
      }
      if (n == 0) break;
      hasher.update(buffer.data(), static_cast<std::size_t>(n));
      int error = fault(write_step, item.path);
      if (error == 0) error = write_all(temp.get(), buffer.data(), static_cast<std::size_t>(n));
      if (error != 0) {
        discard();
        m_progress.uncount_copied_bytes(copied);
        fail(ErrorCode::io, item.path, "writing", error);
        return CopyOutcome::stopped;
      }
      got = static_cast<std::size_t>(n);
    }
    copied += got;
    m_progress.add_copied_bytes(got);
  }
  struct stat after {};
  bool changed = ::fstat(source.get(), &after) != 0 || after.st_size != before.st_size ||
                 to_ns(after.st_mtim) != to_ns(before.st_mtim) || copied != static_cast<std::uint64_t>(before.st_size);
  if (changed) {
    discard();
    m_progress.uncount_copied_bytes(copied);
    return CopyOutcome::retry;
  }
  std::string source_hash = hasher.hex_digest();
  ::fchmod(temp.get(), target_mode(item));
  timespec times[2] = {before.st_atim, before.st_mtim};
  ::futimens(temp.get(), times);
  if (copied >= k_own_fsync_bytes) {
    int error = fault("fsync", item.path);
    if (error == 0 && ::fsync(temp.get()) != 0) error = errno;
    if (error != 0) {
      // Never fsync this descriptor again (a retried fsync can succeed on pages the kernel dropped):
      // the file is copied afresh.
      spdlog::warn("{}: fsync failed ({}); copying it again", display_path(item.path), errno_text(error));
      discard();
      m_progress.uncount_copied_bytes(copied);
      if (error == ENOSPC || error == EDQUOT || error == EROFS) {
        fail(ErrorCode::io, item.path, "making the copy durable", error);
        return CopyOutcome::stopped;
      }
      return CopyOutcome::durability_failed;
    }
    staged.synced = true;
  }
  if (int error = temp.close_checked()) {
    ::unlinkat(m_staging_fd.get(), staged.temp_name.c_str(), 0);
    m_progress.uncount_copied_bytes(copied);
    if (error == ENOSPC || error == EDQUOT) {
      fail(ErrorCode::io, item.path, "closing the copy", error);
      return CopyOutcome::stopped;
    }
    return CopyOutcome::durability_failed;
  }
  // Verify: the copy, read back, must hash as the source did while it was read.
  {
    UniqueFd check(::openat(m_staging_fd.get(), staged.temp_name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
    hasher.reset();
    bool read_ok = static_cast<bool>(check);
    while (read_ok) {
      ssize_t n = ::read(check.get(), buffer.data(), buffer.size());
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) {
        read_ok = n == 0;
        break;
      }
      hasher.update(buffer.data(), static_cast<std::size_t>(n));
    }
    if (!read_ok || hasher.hex_digest() != source_hash) {
      spdlog::warn("{}: the copy does not match what was read from the source; copying it again",
                   display_path(item.path));
      ::unlinkat(m_staging_fd.get(), staged.temp_name.c_str(), 0);
      m_progress.uncount_copied_bytes(copied);
      return CopyOutcome::retry;
    }
  }
  staged.entry = ManifestEntry{item.path, copied, to_ns(before.st_mtim), source_hash};
  staged.source_dev = before.st_dev;
  staged.source_ino = before.st_ino;
  return CopyOutcome::staged;
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

void ImportJob::stage(Staged staged) {
  {
    std::lock_guard lock(m_pending_mutex);
    if (!staged.synced) m_pending_unsynced_bytes += staged.entry.size;
    m_pending.push_back(std::move(staged));
  }
  maybe_commit(false);
}

void ImportJob::maybe_commit(bool force) {
  std::unique_lock commit_lock(m_commit_mutex, std::defer_lock);
  if (force)
    commit_lock.lock();
  else if (!commit_lock.try_lock())
    return;
  std::vector<Staged> batch;
  {
    std::lock_guard lock(m_pending_mutex);
    if (m_pending.empty()) return;
    if (!force && m_pending.size() < k_batch_files && m_pending_unsynced_bytes < k_batch_bytes) return;
    batch.swap(m_pending);
    m_pending_unsynced_bytes = 0;
  }
  commit(std::move(batch));
}

// Durable before visible: one syncfs for the batch's small files, then the renames, then the
// folders that received them, then the manifest records; only then may --move delete sources.
void ImportJob::commit(std::vector<Staged> batch) {
  if (!sync_batch(batch)) return;
  std::map<std::string, UniqueFd> folders;  // each target folder of the batch, opened once
  std::vector<Staged> renamed = rename_into_place(batch, folders);
  for (const auto& [folder, fd] : folders) {
    if (!fd) continue;
    if (::fsync(fd.get()) != 0) return fail(ErrorCode::io, folder, "making the folder durable", errno);
  }
  if (renamed.empty()) return;
  std::string records;
  for (const auto& s : renamed) records += format_manifest_line(s.entry);
  int error = fault("manifest", "");
  if (error == 0) error = write_all(m_manifest_fd.get(), records.data(), records.size());
  if (error == 0 && ::fdatasync(m_manifest_fd.get()) != 0) error = errno;
  if (error != 0) return fail(ErrorCode::io, "", "writing the import manifest", error);
  {
    std::lock_guard lock(m_entries_mutex);
    for (const auto& s : renamed) m_new_entries[s.entry.path] = s.entry;
  }
  for (const auto& s : renamed) {
    m_progress.file_copied(0);
    if (m_options.move) delete_source(s.entry.path, s.entry, std::make_pair(s.source_dev, s.source_ino));
  }
}

// The batch's syncfs. false: the job stops (the batch is thrown away). Small files whose syncfs
// failed leave the batch, to be copied afresh; files that had their own fsync go on.
bool ImportJob::sync_batch(std::vector<Staged>& batch) {
  bool any_unsynced = std::any_of(batch.begin(), batch.end(), [](const Staged& s) { return !s.synced; });
  if (!any_unsynced) return true;
  int error = fault("syncfs", "");
  if (error == 0 && ::syncfs(m_staging_fd.get()) != 0) error = errno;
  if (error == 0) return true;
  auto discard = [&](const Staged& s) {
    ::unlinkat(m_staging_fd.get(), s.temp_name.c_str(), 0);
    m_progress.uncount_copied_bytes(s.entry.size);
  };
  auto unsynced = std::stable_partition(batch.begin(), batch.end(), [](const Staged& s) { return s.synced; });
  std::vector<Staged> redo(std::make_move_iterator(unsynced), std::make_move_iterator(batch.end()));
  batch.erase(unsynced, batch.end());
  spdlog::warn("syncfs on the target failed ({}); copying {} file(s) again", errno_text(error), redo.size());
  for (const auto& s : redo) discard(s);
  if (error == ENOSPC || error == EDQUOT || error == EROFS) {
    for (const auto& s : batch) discard(s);
    fail(ErrorCode::io, "", "syncing", error);
    return false;
  }
  std::lock_guard lock(m_retry_mutex);
  for (const auto& s : redo) {
    if (s.attempts >= k_max_attempts) {
      for (const auto& kept : batch) discard(kept);
      fail(ErrorCode::io, s.entry.path, "making the copy durable", error);
      return false;
    }
    m_retry.emplace_back(s.item, s.attempts + 1);
  }
  return true;
}

// Each copy goes into its folder through that folder's descriptor, opened beneath the target
// without following symlinks and checked not to be a source folder (TargetFolders): a symlink
// planted or swapped in since the folder pass blocks its files, it never redirects them.
std::vector<Staged> ImportJob::rename_into_place(std::vector<Staged>& batch, std::map<std::string, UniqueFd>& folders) {
  std::vector<Staged> renamed;
  renamed.reserve(batch.size());
  std::map<std::string, FolderBlock> blocks;
  auto discard_from = [&](std::size_t from) {
    for (std::size_t i = from; i < batch.size(); ++i) {
      ::unlinkat(m_staging_fd.get(), batch[i].temp_name.c_str(), 0);
      m_progress.uncount_copied_bytes(batch[i].entry.size);
    }
  };
  auto not_imported = [&](const Staged& s, const std::string& kind, const std::string& message) {
    ::unlinkat(m_staging_fd.get(), s.temp_name.c_str(), 0);
    add_problem(s.entry.path, kind, message);
    m_progress.file_failed(0);
  };
  for (std::size_t i = 0; i < batch.size(); ++i) {
    Staged& s = batch[i];
    std::string folder = parent_of(s.entry.path);
    if (!folders.count(folder) && !blocks.count(folder)) {
      UniqueFd fd;
      FolderOutcome opened = m_folders.open_for_rename(folder, fd);
      if (opened.kind == FolderOutcome::Kind::stop_overlap) {
        discard_from(i);
        refuse(opened.message);
        break;
      }
      if (opened.kind == FolderOutcome::Kind::stop_io) {
        discard_from(i);
        fail(ErrorCode::io, folder, "opening the folder", opened.error);
        break;
      }
      if (opened.kind == FolderOutcome::Kind::blocked)
        blocks.emplace(folder, opened.block);
      else
        folders.emplace(folder, std::move(fd));
    }
    if (auto block = blocks.find(folder); block != blocks.end()) {
      not_imported(s, block->second.kind, block->second.message);
      continue;
    }
    int error = fault("rename", s.entry.path);
    if (error == 0 && ::renameat(m_staging_fd.get(), s.temp_name.c_str(), folders.at(folder).get(),
                                 leaf_of(s.entry.path).c_str()) != 0)
      error = errno;
    if (error == EISDIR || error == ENOTDIR || error == ENOTEMPTY || error == EEXIST || error == ENOENT) {
      not_imported(s, "exists-as-other",
                   "the target has something else at this name (a folder?) or its folder is missing: " +
                       errno_text(error));
      continue;
    }
    if (error == EXDEV) {  // a mount point inside the target: the staging folder is on another filesystem
      not_imported(s, "error",
                   fmt::format("its folder '{}' in the target is on another filesystem (a mount point inside the "
                               "target), where the copy cannot be renamed: not imported, the source is kept",
                               display_path(folder)));
      continue;
    }
    if (error != 0) {
      discard_from(i);
      fail(ErrorCode::io, s.entry.path, "renaming the copy into place", error);
      break;
    }
    renamed.push_back(std::move(s));
  }
  return renamed;
}

void ImportJob::delete_source(const std::string& path, const ManifestEntry& copied,
                              std::optional<std::pair<dev_t, ino_t>> id) {
  std::string parent = parent_of(path);
  // Through a held descriptor of the parent, opened without following any symlink: a folder
  // swapped for a symlink since the scan cannot redirect the deletion outside the source.
  UniqueFd dir(parent.empty() ? ::openat(m_source_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                              : open_beneath(m_source_fd.get(), parent, O_RDONLY | O_DIRECTORY));
  if (!dir)
    return add_problem(path, "kept-changed",
                       "the source's folder cannot be opened safely (" + errno_text(errno) + "): source kept");
  std::string leaf = leaf_of(path);
  struct stat now {};
  if (::fstatat(dir.get(), leaf.c_str(), &now, AT_SYMLINK_NOFOLLOW) != 0) return;  // already gone
  bool same = static_cast<std::uint64_t>(now.st_size) == copied.size && to_ns(now.st_mtim) == copied.mtime_ns &&
              (!id || (now.st_dev == id->first && now.st_ino == id->second));
  if (!same)
    return add_problem(path, "kept-changed",
                       "the source changed after it was copied (size or mtime): it was kept; run the import again "
                       "to copy the new version");
  int error = fault("delete", path);
  if (error == 0 && ::unlinkat(dir.get(), leaf.c_str(), 0) != 0) error = errno;
  if (error != 0) return add_problem(path, "kept", "cannot delete the source after copying it: " + errno_text(error));
  m_progress.file_moved();
}

void ImportJob::remove_emptied_source_directories() {
  for (auto it = m_scan.directories.rbegin(); it != m_scan.directories.rend(); ++it) {
    std::string parent = parent_of(*it);
    UniqueFd dir(parent.empty() ? ::openat(m_source_fd.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                : open_beneath(m_source_fd.get(), parent, O_RDONLY | O_DIRECTORY));
    if (!dir) continue;
    int error = fault("rmdir", *it);
    if (error == 0 && ::unlinkat(dir.get(), leaf_of(*it).c_str(), AT_REMOVEDIR) != 0) error = errno;
    if (error != 0 && error != ENOTEMPTY && error != EEXIST && error != ENOENT)
      spdlog::info("{}: folder not removed: {}", display_path(*it), errno_text(error));
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

}  // namespace

Result<ImportReport> run_import(const ImportOptions& options, ProgressTracker& progress, const CancelToken& cancel) {
  ImportJob job(options, progress, cancel);
  return job.run();
}

}  // namespace tfwsl::dataset
