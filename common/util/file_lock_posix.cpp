#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

#include "common/util/atomic_file.hpp"
#include "common/util/file_lock.hpp"

namespace tfwsl {
namespace {

constexpr std::chrono::milliseconds k_poll{20};

Result<int> open_lock_file(const std::filesystem::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
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

}  // namespace

Result<FileLock> FileLock::acquire(const std::filesystem::path& lock_path, std::chrono::milliseconds wait,
                                   const std::optional<AccountId>& owner) {
  TFWSL_TRY(fd, open_lock_file(lock_path));
  if (owner)
    if (auto given = give_to(lock_path, *owner); !given) {
      ::close(fd);
      return tl::unexpected(given.error());
    }
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno == EINTR) continue;
    if (errno != EWOULDBLOCK || std::chrono::steady_clock::now() >= deadline) {
      const bool held = errno == EWOULDBLOCK;
      const std::string why = std::strerror(errno);
      ::close(fd);
      if (held)
        return make_error(ErrorCode::busy, "another process has held the lock " + shown_path(lock_path) + " for " +
                                               std::to_string(wait.count() / 1000) + " s: try again when it is done");
      return make_error(ErrorCode::io, "cannot lock " + shown_path(lock_path) + ": " + why);
    }
    std::this_thread::sleep_for(k_poll);
  }
  return FileLock(fd);
}

void FileLock::release() noexcept {
  if (m_handle < 0) return;
  ::close(static_cast<int>(m_handle));  // closing the descriptor drops the flock
  m_handle = -1;
}

FileLock::FileLock(FileLock&& other) noexcept : m_handle(other.m_handle) { other.m_handle = -1; }

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    m_handle = other.m_handle;
    other.m_handle = -1;
  }
  return *this;
}

FileLock::~FileLock() { release(); }

}  // namespace tfwsl
