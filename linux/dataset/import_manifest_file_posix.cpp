#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "linux/dataset/import_manifest_file.hpp"
#include "linux/dataset/import_roots.hpp"
#include "linux/dataset/import_types.hpp"

namespace tfwsl::dataset::import_detail {
namespace {

constexpr std::size_t k_manifest_read_bytes = 1 << 20;
// The shortest record: hash (32), size, mtime and path (1 each), check (16), four spaces, newline.
constexpr std::size_t k_min_manifest_line_bytes = 56;

// For keys in file order: true at the last occurrence of each key.
std::vector<bool> latest_of_each(const std::vector<std::uint64_t>& keys) {
  std::vector<std::pair<std::uint64_t, std::size_t>> order(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i) order[i] = {keys[i], i};
  std::sort(order.begin(), order.end());
  std::vector<bool> keep(keys.size(), false);
  for (std::size_t i = 0; i < order.size(); ++i)
    if (i + 1 == order.size() || order[i + 1].first != order[i].first) keep[order[i].second] = true;
  return keep;
}

}  // namespace

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

Result<bool> ManifestFile::read(ManifestReader& reader, std::size_t* file_size) {
  // O_NONBLOCK: a FIFO planted under the name must be refused, never waited on.
  UniqueFd existing(::openat(m_state_fd, "manifest", O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK));
  if (!existing) {
    if (errno != ENOENT) return tl::unexpected(state_error(m_target, "open the import manifest"));
    return false;
  }
  TFWSL_TRY_STATUS(require_regular(existing.get(), where()));
  struct stat info {};
  if (file_size != nullptr)
    *file_size = ::fstat(existing.get(), &info) == 0 ? static_cast<std::size_t>(info.st_size) : 0;
  std::vector<char> buffer(k_manifest_read_bytes);
  while (true) {
    ssize_t n = ::read(existing.get(), buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0)
      return make_error(ErrorCode::io,
                        fmt::format("cannot read the import manifest {}: {}", where(), errno_text(errno)));
    if (n == 0) break;
    TFWSL_TRY_STATUS(reader.feed(std::string_view(buffer.data(), static_cast<std::size_t>(n))));
  }
  return reader.finish();
}

Result<bool> ManifestFile::load() {
  std::size_t file_size = 0;
  bool reserved = false;
  ManifestReader reader(where(), [&](const ManifestEntry& entry, std::string_view) {
    if (!reserved) m_loaded.reserve(file_size / k_min_manifest_line_bytes + 1);
    reserved = true;
    m_loaded.add(entry);
  });
  TFWSL_TRY(clean, read(reader, &file_size));
  m_loaded.finish();
  return clean;
}

int ManifestFile::append(const std::vector<Staged>& renamed) {
  std::string records;
  for (const auto& s : renamed) records += format_manifest_line(s.entry);
  int error = m_files.write_manifest(m_append_fd.get(), records);
  if (error == 0) error = m_files.sync_manifest(m_append_fd.get(), false);
  if (error != 0) return error;
  if (!m_superseded && !m_loaded.empty())
    for (const auto& s : renamed)
      if (m_loaded.contains(s.entry.path)) m_superseded = true;
  return 0;
}

// The manifest rewritten with only the latest record of each path, in file order: one pass reads
// the path keys (8 bytes a record, 16 while sorted), a second copies the winning lines through.
Status ManifestFile::write_compacted() {
  std::vector<std::uint64_t> keys;
  ManifestReader key_reader(
      where(), [&](const ManifestEntry& entry, std::string_view) { keys.push_back(manifest_path_key(entry.path)); });
  TFWSL_TRY_STATUS(read(key_reader));
  std::vector<bool> keep = latest_of_each(keys);
  keys = {};

  auto error = [&](const char* doing, int e) {
    return make_error(
        e == ENOSPC || e == EDQUOT ? ErrorCode::no_space : ErrorCode::io,
        fmt::format("cannot {} the import manifest in '{}': {}", doing, m_target.string(), errno_text(e)));
  };
  UniqueFd fd(::openat(m_state_fd, "manifest.tmp", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!fd) return error("create", errno);
  std::string text = manifest_header_line();
  int write_error = 0;
  std::size_t ordinal = 0;
  ManifestReader copier(where(), [&](const ManifestEntry&, std::string_view line) {
    if (ordinal >= keep.size() || !keep[ordinal++] || write_error != 0) return;
    text.append(line).push_back('\n');
    if (text.size() < k_manifest_read_bytes) return;
    write_error = m_files.write_manifest(fd.get(), text);
    text.clear();
  });
  Result<bool> copied = read(copier);
  if (copied && write_error == 0) write_error = m_files.write_manifest(fd.get(), text);
  if (!copied || write_error != 0) {
    ::unlinkat(m_state_fd, "manifest.tmp", 0);
    if (!copied) return tl::unexpected(copied.error());
    return error("write", write_error);
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
  return write_compacted();
}

}  // namespace tfwsl::dataset::import_detail
