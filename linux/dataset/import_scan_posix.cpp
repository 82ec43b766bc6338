#include <fmt/format.h>
#include <spdlog/spdlog.h>
#include <sys/statvfs.h>

#include <algorithm>
#include <chrono>
#include <cstdint>

#include "common/util/byte_size_text.hpp"
#include "linux/dataset/import_scan.hpp"
#include "linux/dataset/import_tuning.hpp"

namespace tfwsl::dataset::import_detail {
namespace {

Status preflight_space(const ScanResult& scan, int target_fd, const std::filesystem::path& target) {
  std::uint64_t need = 0, files = 0;
  for (std::size_t i = 0; i < scan.items.size(); ++i) {
    // Already in the target. (A copy that --verify finds damaged is recopied without being counted.)
    if (scan.items.already_imported(i)) continue;
    need += (scan.items.file_size(i) + 4095) / 4096 * 4096 + 4096;  // whole blocks, plus the inode and directory entry
    ++files;
  }
  need += scan.directories.size() * 4096;
  struct statvfs vfs {};
  if (::fstatvfs(target_fd, &vfs) != 0) return {};  // nothing to judge by: ENOSPC will still stop cleanly
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
                                  target.string(), format_bytes(double(available)), format_bytes(double(need)),
                                  format_bytes(double(margin)), format_bytes(double(need + margin - available))));
  if (vfs.f_favail != 0 && vfs.f_files != 0 && vfs.f_favail < files + scan.directories.size())
    return make_error(ErrorCode::no_space,
                      fmt::format("not enough free inodes on the target filesystem of '{}': {} free, this import "
                                  "needs {}; nothing was copied",
                                  target.string(), vfs.f_favail, files + scan.directories.size()));
  return {};
}

}  // namespace

// The resume check, on the scan's threads: a file is already imported when its record matches the
// source's size and mtime and the target holds a file (or symlink) of that size. Such a file is
// counted as skipped here and left out of the scan's list (a no-op re-run of a million files lists
// none), unless --verify or --move must still look at its copy. "scan" is the one hook step that
// is no ImportFiles call: the scan's reads fail per entry and are reported, never stop the job, so
// they stay plain calls (import_files.hpp); the step lets a test kill the job here.
bool SourceScan::check_resume(ScannedItem& item, std::int64_t mtime_ns) const {
  if (m_options.fault_hook) m_options.fault_hook("scan", item.path);
  item.already_imported = m_imported.matches(item.path, item.size, mtime_ns) &&
                          m_folders.present(item.path, item.kind == ItemKind::symlink, item.size);
  if (!item.already_imported || m_options.verify || m_options.move) return true;
  m_problems.note_unusual_name(item.path);
  m_progress.file_skipped(item.size);
  return false;
}

Result<ScanResult> SourceScan::run(int source_fd, int target_fd, const std::filesystem::path& target, unsigned jobs,
                                   const CancelToken& cancel) {
  m_progress.set_phase(ImportPhase::scanning);
  ScanOptions options;
  options.threads = std::max(jobs, k_default_scan_threads);
  options.exclude = m_options.exclude;
  if (!m_imported.empty() || m_options.fault_hook)
    options.visit = [this](ScannedItem& item, std::int64_t mtime_ns) { return check_resume(item, mtime_ns); };
  auto scan_start = std::chrono::steady_clock::now();
  ScanResult scan = scan_tree(source_fd, options, cancel, m_progress);
  auto scan_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - scan_start).count();
  spdlog::debug("scan: {} files and symlinks, {} folders, {} problems in {} ms ({} threads)", scan.items.size(),
                scan.directories.size(), scan.problems.size(), scan_ms, options.threads);
  if (cancel.cancelled()) return make_error(ErrorCode::cancelled, "the import was cancelled during the scan");
  for (auto& problem : scan.problems) m_problems.add(problem.path, problem.kind, problem.message);
  m_problems.note_unusual_names(scan.items);
  // Large files first: they overlap with the many small ones instead of trailing at the end.
  for (std::size_t i = 0; i < scan.items.size(); ++i)
    if (scan.items.file_size(i) >= k_own_fsync_bytes) {
      scan.items.sort_large_first(k_own_fsync_bytes);
      break;
    }
  if (!m_options.skip_space_check) TFWSL_TRY_STATUS(preflight_space(scan, target_fd, target));
  return scan;
}

}  // namespace tfwsl::dataset::import_detail
