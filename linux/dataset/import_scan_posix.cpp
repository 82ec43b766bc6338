// The job's scan phase: the source tree listed (with the resume check against the manifest on the
// scan's threads), the free-space preflight, and the target's folders made before any file.
#include <sys/statvfs.h>

#include <algorithm>
#include <chrono>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "common/util/byte_size_text.hpp"
#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset::import_detail {

Status ImportJob::scan_source(unsigned jobs) {
  m_progress.set_phase(ImportPhase::scanning);
  ScanOptions scan;
  scan.threads = std::max(jobs, k_default_scan_threads);
  scan.exclude = m_options.exclude;
  // Resume check, on the scan's threads: a file is already imported when its record matches the
  // source's size and mtime and the target holds a file (or symlink) of that size.
  if (!m_manifest.empty() || m_options.fault_hook)
    scan.visit = [this](ScannedItem& item) {
      scan_hook(item.path);
      auto known = m_manifest.find(item.path);
      item.already_imported = known != m_manifest.end() && known->second.size == item.size &&
                              known->second.mtime_ns == item.mtime_ns && target_present(item, item.size);
    };
  auto scan_start = std::chrono::steady_clock::now();
  m_scan = scan_tree(m_source_fd.get(), scan, m_cancel, m_progress);
  auto scan_ms =
      std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - scan_start).count();
  spdlog::debug("scan: {} files and symlinks, {} folders, {} problems in {} ms ({} threads)", m_scan.items.size(),
                m_scan.directories.size(), m_scan.problems.size(), scan_ms, scan.threads);
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
  return {};
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

}  // namespace tfwsl::dataset::import_detail
