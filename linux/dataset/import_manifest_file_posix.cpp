// The manifest file in the target's state folder: loaded at the start (its records make the resume
// check), appended to by each commit, and rewritten whole (temp, fsync, rename) when it is new, was
// cut short by a crash, or has records a later one replaced.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset::import_detail {

Status ImportJob::open_manifest() {
  TFWSL_TRY(clean, load_manifest());
  // A new manifest, or one whose last record was cut short by a crash, is rewritten whole (temp,
  // fsync, rename) so that appends never land after a partial line. A clean one is appended to.
  if (!clean) TFWSL_TRY_STATUS(write_compacted_manifest());
  m_manifest_fd =
      UniqueFd(::openat(m_state_fd.get(), "manifest", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!m_manifest_fd) return tl::unexpected(state_error("open the import manifest for appending"));
  return require_regular_manifest(m_manifest_fd.get(),
                                  (m_paths.target / std::string(k_state_dir_name) / "manifest").string());
}

Status ImportJob::require_regular_manifest(int fd, const std::string& where) const {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return tl::unexpected(state_error("inspect the import manifest"));
  if (!S_ISREG(info.st_mode))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("the import manifest {} is not a regular file, which the import never reads: "
                                  "remove it and run the import again",
                                  where));
  return {};
}

Result<bool> ImportJob::load_manifest() {
  std::string where = (m_paths.target / std::string(k_state_dir_name) / "manifest").string();
  // O_NONBLOCK: a FIFO planted under the name must be refused, never waited on.
  UniqueFd existing(::openat(m_state_fd.get(), "manifest", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!existing) {
    if (errno != ENOENT) return tl::unexpected(state_error("open the import manifest"));
    return false;
  }
  TFWSL_TRY_STATUS(require_regular_manifest(existing.get(), where));
  std::string text;
  std::vector<char> buffer(1 << 16);
  while (true) {
    ssize_t n = ::read(existing.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return make_error(ErrorCode::io, fmt::format("cannot read the import manifest {}: {}", where, errno_text(errno)));
    if (n == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  TFWSL_TRY(entries, parse_manifest(text, where));
  m_manifest = std::move(entries);
  return !text.empty() && text.back() == '\n';
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
  if (int e = m_files.write_manifest(fd.get(), text)) {
    ::unlinkat(m_state_fd.get(), "manifest.tmp", 0);
    return error("write", e);
  }
  int e = m_files.sync_manifest(fd.get(), true);
  if (e == 0) e = fd.close_checked();
  if (e != 0) {
    ::unlinkat(m_state_fd.get(), "manifest.tmp", 0);
    return error("make durable", e);
  }
  if (::renameat(m_state_fd.get(), "manifest.tmp", m_state_fd.get(), "manifest") != 0) return error("replace", errno);
  if (::fsync(m_state_fd.get()) != 0) return error("make durable", errno);
  return {};
}

// Compaction only drops records that a later one for the same path replaced: a no-op re-run
// writes nothing.
Status ImportJob::compact_manifest_if_superseded() {
  bool superseded = false;
  {
    std::lock_guard lock(m_entries_mutex);
    for (const auto& [path, entry] : m_new_entries) superseded = superseded || m_manifest.count(path) > 0;
  }
  return superseded ? write_compacted_manifest() : Status{};
}

}  // namespace tfwsl::dataset::import_detail
