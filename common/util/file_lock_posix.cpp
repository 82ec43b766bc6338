#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>
#include <thread>

#include "common/util/atomic_file.hpp"
#include "common/util/file_lock.hpp"

namespace tfwsl {
namespace {

constexpr std::chrono::milliseconds k_poll{20};

Result<int> open_folder(const std::filesystem::path& lock_path) {
  const auto folder = lock_path.has_parent_path() ? lock_path.parent_path() : std::filesystem::path(".");
  const int fd = ::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0)
    return make_error(ErrorCode::io,
                      "cannot open the folder of the lock file " + shown_path(lock_path) + ": " + std::strerror(errno));
  return fd;
}

// The lock file, opened beneath its folder without following a link at its name.
Result<int> open_lock_file(int folder, const std::filesystem::path& path) {
  const int fd =
      ::openat(folder, path.filename().c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
  if (fd < 0)
    return make_error(ErrorCode::io, "cannot open the lock file " + shown_path(path) + ": " + std::strerror(errno) +
                                         (errno == ELOOP ? " (it is a link: remove it)" : ""));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return make_error(ErrorCode::io, "the lock file " + shown_path(path) + " is not a regular file: remove it");
  }
  return fd;
}

// Whether the name still leads to the file `fd` has open (no holder removed it in between).
bool still_named(int folder, const std::filesystem::path& path, int fd) {
  struct stat held {};
  struct stat named {};
  return ::fstat(fd, &held) == 0 && ::fstatat(folder, path.filename().c_str(), &named, AT_SYMLINK_NOFOLLOW) == 0 &&
         held.st_dev == named.st_dev && held.st_ino == named.st_ino;
}

Error busy_error(const std::filesystem::path& lock_path, std::chrono::milliseconds wait) {
  return Error{ErrorCode::busy, "another process has held the lock " + shown_path(lock_path) + " for " +
                                    std::to_string(wait.count() / 1000) + " s: try again when it is done"};
}

// Waits for the flock on `fd` until the deadline: true when held, false when busy; an error else.
Result<bool> lock_until(int fd, std::chrono::steady_clock::time_point deadline, const std::filesystem::path& path) {
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK)
      return make_error(ErrorCode::io, "cannot lock " + shown_path(path) + ": " + std::strerror(errno));
    if (std::chrono::steady_clock::now() >= deadline) return false;
    std::this_thread::sleep_for(k_poll);
  }
  return true;
}

Result<int> lock_named_file(int folder, const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                            const std::optional<AccountId>& owner) {
  const auto deadline = std::chrono::steady_clock::now() + wait;
  for (;;) {
    TFWSL_TRY(fd, open_lock_file(folder, lock_path));
    if (owner)
      if (auto given = give_to(lock_path, *owner); !given) {
        ::close(fd);
        return tl::unexpected(given.error());
      }
    auto held = lock_until(fd, deadline, lock_path);
    if (held && *held && still_named(folder, lock_path, fd)) return fd;
    ::close(fd);  // busy, an error, or the holder before removed this file: take the new one
    if (!held) return tl::unexpected(held.error());
    if (!*held || std::chrono::steady_clock::now() >= deadline) return tl::unexpected(busy_error(lock_path, wait));
  }
}

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                                   const std::optional<AccountId>& owner) {
  TFWSL_TRY(folder, open_folder(lock_path));
  auto fd = lock_named_file(folder, lock_path, wait, owner);
  if (!fd) {
    ::close(folder);
    return tl::unexpected(fd.error());
  }
  return FileLock(*fd, folder, lock_path);
}

void FileLock::release() noexcept {
  if (m_handle < 0) return;
  const int fd = static_cast<int>(m_handle);
  const int folder = static_cast<int>(m_folder);
  // Removed while still held, and only while it is still the file named: a waiter that locks it
  // next sees it unnamed and takes a new one.
  if (still_named(folder, m_path, fd)) ::unlinkat(folder, m_path.filename().c_str(), 0);
  ::close(fd);  // closing the descriptor drops the flock
  ::close(folder);
  m_handle = -1;
  m_folder = -1;
}

}  // namespace tfwsl
