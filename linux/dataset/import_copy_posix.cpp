#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "linux/dataset/import_copy.hpp"
#include "linux/dataset/import_tuning.hpp"

namespace tfwsl::dataset::import_detail {

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

namespace {

// Feeds the rest of a file to the hasher. false: a read failed.
bool hash_file_contents(int fd, std::span<char> buffer, ContentHasher& hasher) {
  while (true) {
    ssize_t n = ::read(fd, buffer.data(), buffer.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return false;
    if (n == 0) return true;
    hasher.update(buffer.data(), static_cast<std::size_t>(n));
  }
}

bool source_changed(const FileCopy& copy) {
  struct stat after {};
  return ::fstat(copy.source, &after) != 0 || after.st_size != copy.before.st_size ||
         to_ns(after.st_mtim) != to_ns(copy.before.st_mtim) ||
         copy.copied != static_cast<std::uint64_t>(copy.before.st_size);
}

}  // namespace

CopyOutcome FileCopier::copy(const ScannedItem& item, Staged& staged, std::span<char> buffer, ContentHasher& hasher) {
  return item.kind == ItemKind::symlink ? copy_symlink(item, staged) : copy_file(item, staged, buffer, hasher);
}

mode_t FileCopier::target_mode(const ScannedItem& item) const {
  bool executable = !m_source_is_drvfs && (item.mode & S_IXUSR);
  return executable ? 0755 : 0644;
}

std::optional<std::string> FileCopier::hash_in_target(const ScannedItem& item, std::span<char> buffer,
                                                      ContentHasher& hasher) {
  hasher.reset();
  if (item.kind == ItemKind::symlink) {
    UniqueFd parent(parent_of(item.path).empty()
                        ? ::openat(m_target_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                        : open_beneath(m_target_fd, parent_of(item.path), O_RDONLY | O_DIRECTORY));
    if (!parent) return std::nullopt;
    ssize_t n = ::readlinkat(parent.get(), leaf_of(item.path).c_str(), buffer.data(), buffer.size());
    if (n < 0) return std::nullopt;
    hasher.update(buffer.data(), static_cast<std::size_t>(n));
    return hasher.hex_digest();
  }
  UniqueFd fd(open_beneath(m_target_fd, item.path, O_RDONLY));
  if (!fd || !hash_file_contents(fd.get(), buffer, hasher)) return std::nullopt;
  return hasher.hex_digest();
}

CopyOutcome FileCopier::copy_symlink(const ScannedItem& item, Staged& staged) {
  std::string parent = parent_of(item.path);
  UniqueFd parent_fd(parent.empty() ? ::openat(m_source_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
                                    : open_beneath(m_source_fd, parent, O_RDONLY | O_DIRECTORY));
  if (!parent_fd) {
    m_job.problems.add(item.path, errno == ENOENT ? "vanished" : "unreadable",
                       "cannot open the symlink's folder: " + errno_text(errno));
    return CopyOutcome::gave_up;
  }
  std::string leaf = leaf_of(item.path);
  struct stat before {};
  if (::fstatat(parent_fd.get(), leaf.c_str(), &before, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISLNK(before.st_mode)) {
    m_job.problems.add(item.path, "vanished", "the symlink vanished or changed type since the scan");
    return CopyOutcome::gave_up;
  }
  std::string text(static_cast<std::size_t>(before.st_size) + 2, '\0');
  ssize_t n = ::readlinkat(parent_fd.get(), leaf.c_str(), text.data(), text.size());
  if (n < 0 || static_cast<std::size_t>(n) != static_cast<std::size_t>(before.st_size)) return CopyOutcome::retry;
  text.resize(static_cast<std::size_t>(n));
  staged.temp_name = next_temp_name();
  if (::symlinkat(text.c_str(), m_staging_fd, staged.temp_name.c_str()) != 0) {
    m_job.stop.fail(ErrorCode::io, item.path, "creating the symlink", errno);
    return CopyOutcome::stopped;
  }
  timespec times[2] = {before.st_atim, before.st_mtim};
  ::utimensat(m_staging_fd, staged.temp_name.c_str(), times, AT_SYMLINK_NOFOLLOW);
  staged.entry = ManifestEntry{item.path, static_cast<std::uint64_t>(n), to_ns(before.st_mtim), content_hash(text)};
  staged.source_dev = before.st_dev;
  staged.source_ino = before.st_ino;
  return CopyOutcome::staged;
}

// A file into staging, in named steps: open the source, copy its bytes (hashing what is read),
// check it did not change meanwhile, make the copy durable when it is large, read it back and
// compare. Any step that ends the copy has already removed the temporary file.
CopyOutcome FileCopier::copy_file(const ScannedItem& item, Staged& staged, std::span<char> buffer,
                                  ContentHasher& hasher) {
  FileCopy copy{item};
  UniqueFd source = open_source_file(item, copy.before);
  if (!source) return CopyOutcome::gave_up;
  copy.source = source.get();
  copy.temp_name = next_temp_name();
  copy.temp = UniqueFd(
      ::openat(m_staging_fd, copy.temp_name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600));
  if (!copy.temp) {
    m_job.stop.fail(ErrorCode::io, item.path, "creating its temporary file", errno);
    return CopyOutcome::stopped;
  }
  if (auto ended = copy_contents(copy, buffer, hasher)) return *ended;
  if (source_changed(copy)) {
    discard_copy(copy);
    return CopyOutcome::retry;
  }
  std::string source_hash = hasher.hex_digest();
  if (auto ended = make_copy_durable(copy, staged)) return *ended;
  if (!copy_reads_back(copy, source_hash, buffer, hasher)) {
    spdlog::warn("{}: the copy does not match what was read from the source; copying it again",
                 display_path(item.path));
    discard_copy(copy);
    return CopyOutcome::retry;
  }
  staged.temp_name = copy.temp_name;
  staged.entry = ManifestEntry{item.path, copy.copied, to_ns(copy.before.st_mtim), source_hash};
  staged.source_dev = copy.before.st_dev;
  staged.source_ino = copy.before.st_ino;
  return CopyOutcome::staged;
}

// The source opened beneath the source root without following symlinks; an empty descriptor when
// the file is skipped (its problem already reported).
UniqueFd FileCopier::open_source_file(const ScannedItem& item, struct stat& before) {
  UniqueFd source(open_beneath(m_source_fd, item.path, O_RDONLY | O_NOFOLLOW));
  if (!source) {
    int error = errno;
    if (error == ENOENT)
      m_job.problems.add(item.path, "vanished", "the file vanished since the scan: skipped");
    else if (error == ELOOP || error == EXDEV)
      m_job.problems.add(item.path, "changed", "the path now goes through a symlink: not followed, skipped");
    else
      m_job.problems.add(item.path, "unreadable", "cannot open the file: " + errno_text(error));
    return source;
  }
  if (::fstat(source.get(), &before) != 0 || !S_ISREG(before.st_mode)) {
    m_job.problems.add(item.path, "changed", "no longer a regular file: skipped");
    return UniqueFd();
  }
  return source;
}

// nullopt: every byte is copied and hashed; otherwise how the copy ended (temporary file removed).
std::optional<CopyOutcome> FileCopier::copy_contents(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher) {
  hasher.reset();
  bool use_range = m_copy_range_ok && static_cast<std::uint64_t>(copy.before.st_size) >= k_copy_range_min_bytes;
  while (true) {
    if (m_job.stop.stopping()) {
      discard_copy(copy);
      return CopyOutcome::stopped;
    }
    CopiedChunk chunk = use_range ? copy_range_chunk(copy, buffer, hasher) : copy_buffered_chunk(copy, buffer, hasher);
    if (chunk.range_unsupported) {
      m_copy_range_ok = false;  // not between these filesystems: plain read/write from here on
      use_range = false;
      continue;
    }
    if (chunk.outcome) {
      discard_copy(copy);
      return chunk.outcome;
    }
    if (chunk.bytes == 0) return std::nullopt;
    copy.copied += chunk.bytes;
    m_job.progress.add_copied_bytes(chunk.bytes);
  }
}

CopiedChunk FileCopier::copy_range_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher) {
  loff_t in_off = static_cast<loff_t>(copy.copied), out_off = static_cast<loff_t>(copy.copied);
  ssize_t n =
      m_job.files.copy_range(copy.source, &in_off, copy.temp.get(), &out_off, k_copy_range_chunk, copy.item.path);
  if (n < 0) {
    int error = static_cast<int>(-n);
    if (copy.copied == 0 &&
        (error == EXDEV || error == EINVAL || error == ENOSYS || error == EOPNOTSUPP || error == EBADF))
      return {.range_unsupported = true};
    m_job.stop.fail(ErrorCode::io, copy.item.path, "copying", error);
    return {.outcome = CopyOutcome::stopped};
  }
  // Hash what was copied: the source range is in the page cache now; the verify pass compares
  // this against a re-read of the copy, so a range that changed in between is caught.
  std::size_t hashed = 0;
  while (hashed < static_cast<std::size_t>(n)) {
    std::size_t want = std::min(buffer.size(), static_cast<std::size_t>(n) - hashed);
    ssize_t r = ::pread(copy.source, buffer.data(), want, static_cast<off_t>(copy.copied + hashed));
    if (r <= 0) break;
    hasher.update(buffer.data(), static_cast<std::size_t>(r));
    hashed += static_cast<std::size_t>(r);
  }
  return {.bytes = static_cast<std::size_t>(n)};
}

CopiedChunk FileCopier::copy_buffered_chunk(FileCopy& copy, std::span<char> buffer, ContentHasher& hasher) {
  ssize_t n;
  do {
    n = ::read(copy.source, buffer.data(), buffer.size());
  } while (n < 0 && errno == EINTR);
  if (n < 0) {
    m_job.problems.add(copy.item.path, "unreadable", "reading the source failed: " + errno_text(errno));
    return {.outcome = CopyOutcome::gave_up};
  }
  if (n == 0) return {};
  hasher.update(buffer.data(), static_cast<std::size_t>(n));
  bool large = static_cast<std::uint64_t>(copy.before.st_size) >= k_own_fsync_bytes;
  if (int error =
          m_job.files.write_chunk(copy.temp.get(), buffer.data(), static_cast<std::size_t>(n), copy.item.path, large)) {
    m_job.stop.fail(ErrorCode::io, copy.item.path, "writing", error);
    return {.outcome = CopyOutcome::stopped};
  }
  return {.bytes = static_cast<std::size_t>(n)};
}

// Mode and times set, a large file fsynced on its own (small ones wait for their batch's
// syncfs), the descriptor closed and checked. nullopt: ready to be read back.
std::optional<CopyOutcome> FileCopier::make_copy_durable(FileCopy& copy, Staged& staged) {
  ::fchmod(copy.temp.get(), target_mode(copy.item));
  timespec times[2] = {copy.before.st_atim, copy.before.st_mtim};
  ::futimens(copy.temp.get(), times);
  if (copy.copied >= k_own_fsync_bytes) {
    if (int error = m_job.files.fsync_file(copy.temp.get(), copy.item.path)) {
      // Never fsync this descriptor again (a retried fsync can succeed on pages the kernel dropped):
      // the file is copied afresh.
      spdlog::warn("{}: fsync failed ({}); copying it again", display_path(copy.item.path), errno_text(error));
      discard_copy(copy);
      if (error == ENOSPC || error == EDQUOT || error == EROFS) {
        m_job.stop.fail(ErrorCode::io, copy.item.path, "making the copy durable", error);
        return CopyOutcome::stopped;
      }
      return CopyOutcome::durability_failed;
    }
    staged.synced = true;
  }
  if (int error = copy.temp.close_checked()) {
    discard_copy(copy);
    if (error == ENOSPC || error == EDQUOT) {
      m_job.stop.fail(ErrorCode::io, copy.item.path, "closing the copy", error);
      return CopyOutcome::stopped;
    }
    return CopyOutcome::durability_failed;
  }
  return std::nullopt;
}

// Verify: the copy, read back, must hash as the source did while it was read.
bool FileCopier::copy_reads_back(const FileCopy& copy, const std::string& source_hash, std::span<char> buffer,
                                 ContentHasher& hasher) {
  UniqueFd check(::openat(m_staging_fd, copy.temp_name.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW));
  hasher.reset();
  return check && hash_file_contents(check.get(), buffer, hasher) && hasher.hex_digest() == source_hash;
}

// The temporary file removed and its bytes taken off the progress count.
void FileCopier::discard_copy(FileCopy& copy) {
  copy.temp.reset();
  ::unlinkat(m_staging_fd, copy.temp_name.c_str(), 0);
  m_job.progress.uncount_copied_bytes(copy.copied);
}

}  // namespace tfwsl::dataset::import_detail
