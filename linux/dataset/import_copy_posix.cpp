// One file or symlink of the source into the staging folder (hashed as read, checked for changes,
// read back and verified), and a copy in the target read back for --verify and --move.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <string>

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include "linux/dataset/import_job.hpp"

namespace tfwsl::dataset::import_detail {

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

}  // namespace tfwsl::dataset::import_detail
