#include "linux/dataset/import_manifest_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <string>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "linux/dataset/import_roots.hpp"
#include "linux/dataset/import_types.hpp"

namespace tfwsl::dataset::import_detail {

std::string ManifestFile::where() const { return (m_target / std::string(k_state_dir_name) / "manifest").string(); }

Status ManifestFile::open() {
  TFWSL_TRY(clean, load());
  // A new manifest, or one whose last record was cut short by a crash, is rewritten whole (temp,
  // fsync, rename) so that appends never land after a partial line. A clean one is appended to.
  if (!clean) TFWSL_TRY_STATUS(write_compacted());
  m_append_fd = UniqueFd(::openat(m_state_fd, "manifest", O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!m_append_fd) return tl::unexpected(state_error(m_target, "open the import manifest for appending"));
  return require_regular(m_append_fd.get(), where());
}

Status ManifestFile::require_regular(int fd, const std::string& where) const {
  struct stat info {};
  if (::fstat(fd, &info) != 0) return tl::unexpected(state_error(m_target, "inspect the import manifest"));
  if (!S_ISREG(info.st_mode))
    return make_error(ErrorCode::invalid_input,
                      fmt::format("the import manifest {} is not a regular file, which the import never reads: "
                                  "remove it and run the import again",
                                  where));
  return {};
}

Result<bool> ManifestFile::load() {
  // O_NONBLOCK: a FIFO planted under the name must be refused, never waited on.
  UniqueFd existing(::openat(m_state_fd, "manifest", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!existing) {
    if (errno != ENOENT) return tl::unexpected(state_error(m_target, "open the import manifest"));
    return false;
  }
  TFWSL_TRY_STATUS(require_regular(existing.get(), where()));
  std::string text;
  std::vector<char> buffer(1 << 16);
  while (true) {
    ssize_t n = ::read(existing.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return make_error(ErrorCode::io, fmt::format("cannot read the import manifest {}: {}", where(), errno_text(errno)));
    if (n == 0) break;
    text.append(buffer.data(), static_cast<std::size_t>(n));
  }
  TFWSL_TRY(entries, parse_manifest(text, where()));
  m_loaded = std::move(entries);
  return !text.empty() && text.back() == '\n';
}

int ManifestFile::append(const std::vector<Staged>& renamed) {
  std::string records;
  for (const auto& s : renamed) records += format_manifest_line(s.entry);
  int error = m_files.write_manifest(m_append_fd.get(), records);
  if (error == 0) error = m_files.sync_manifest(m_append_fd.get(), false);
  if (error != 0) return error;
  if (!m_superseded && !m_loaded.empty())
    for (const auto& s : renamed)
      if (m_loaded.count(s.entry.path) > 0) m_superseded = true;
  return 0;
}

Status ManifestFile::write_compacted() {
  std::string text = format_manifest(m_loaded);
  auto error = [&](const char* doing, int e) {
    return make_error(e == ENOSPC || e == EDQUOT ? ErrorCode::no_space : ErrorCode::io,
                      fmt::format("cannot {} the import manifest in '{}': {}", doing, m_target.string(), errno_text(e)));
  };
  UniqueFd fd(::openat(m_state_fd, "manifest.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) return error("create", errno);
  if (int e = m_files.write_manifest(fd.get(), text)) {
    ::unlinkat(m_state_fd, "manifest.tmp", 0);
    return error("write", e);
  }
  int e = m_files.sync_manifest(fd.get(), true);
  if (e == 0) e = fd.close_checked();
  if (e != 0) {
    ::unlinkat(m_state_fd, "manifest.tmp", 0);
    return error("make durable", e);
  }
  if (::renameat(m_state_fd, "manifest.tmp", m_state_fd, "manifest") != 0) return error("replace", errno);
  if (::fsync(m_state_fd) != 0) return error("make durable", errno);
  return {};
}

// Compaction only drops records that a later one for the same path replaced: read back, the file
// holds the loaded records and then this run's, in commit order, and the later record wins.
Status ManifestFile::compact_if_superseded() {
  if (!m_superseded) return {};
  TFWSL_TRY_STATUS(load());
  return write_compacted();
}

}  // namespace tfwsl::dataset::import_detail
