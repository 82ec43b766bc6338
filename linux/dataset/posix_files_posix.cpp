#include <fcntl.h>
#include <fmt/format.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <vector>

#include "linux/dataset/posix_files.hpp"

namespace tfwsl::dataset {

void UniqueFd::reset() {
  if (m_fd >= 0) ::close(m_fd);
  m_fd = -1;
}

int UniqueFd::close_checked() {
  if (m_fd < 0) return 0;
  int rc = ::close(m_fd);
  m_fd = -1;
  return rc == 0 ? 0 : errno;
}

namespace {

std::atomic<bool> g_openat2_missing{false};
const std::string k_this_folder = ".";

int open_by_walking(int dir_fd, const std::string& relative_path, int flags, mode_t mode) {
  int current = dir_fd;
  UniqueFd held;
  std::size_t start = 0;
  while (true) {
    std::size_t slash = relative_path.find('/', start);
    std::string part = relative_path.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
    if (part == "..") {
      errno = EXDEV;
      return -1;
    }
    if (slash == std::string::npos) return ::openat(current, part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode);
    if (!part.empty() && part != ".") {
      int next = ::openat(current, part.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      if (next < 0) return -1;
      held = UniqueFd(next);
      current = next;
    }
    start = slash + 1;
  }
}

}  // namespace

int open_beneath(int dir_fd, const std::string& relative, int flags, mode_t mode) {
  const std::string& relative_path = relative.empty() ? k_this_folder : relative;
  if (!g_openat2_missing.load(std::memory_order_relaxed)) {
    open_how how{};
    how.flags = static_cast<unsigned long long>(flags | O_CLOEXEC);
    how.mode = (flags & O_CREAT) ? mode : 0;
    how.resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS;
    long fd;
    do {
      fd = ::syscall(SYS_openat2, dir_fd, relative_path.c_str(), &how, sizeof how);
    } while (fd < 0 && errno == EAGAIN);
    if (fd >= 0 || errno != ENOSYS) return static_cast<int>(fd);
    g_openat2_missing = true;
  }
  return open_by_walking(dir_fd, relative_path, flags, mode);
}

int open_folder_path(const std::filesystem::path& absolute, bool create) {
  if (!absolute.is_absolute()) {
    errno = EINVAL;
    return -1;
  }
  UniqueFd current(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
  if (!current) return -1;
  std::vector<std::string> parts;
  for (const auto& part : absolute.relative_path())
    if (!part.empty() && part != ".") parts.push_back(part.string());
  if (parts.empty()) return ::open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  for (std::size_t i = 0; i < parts.size(); ++i) {
    // Folders on the way need only be searched (O_PATH); the last one is read.
    int flags = (i + 1 == parts.size() ? O_RDONLY : O_PATH) | O_DIRECTORY;
    UniqueFd next(open_beneath(current.get(), parts[i], flags));
    if (!next && errno == ENOENT && create) {
      if (::mkdirat(current.get(), parts[i].c_str(), 0755) != 0 && errno != EEXIST) return -1;
      next = UniqueFd(open_beneath(current.get(), parts[i], flags));
    }
    if (!next) return -1;
    current = std::move(next);
  }
  return current.release();
}

int write_all(int fd, const char* data, std::size_t size) {
  while (size > 0) {
    ssize_t n = ::write(fd, data, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno;
    }
    if (n == 0) return EIO;
    data += n;
    size -= static_cast<std::size_t>(n);
  }
  return 0;
}

std::string errno_text(int error) {
  const char* name = strerrorname_np(error);
  return fmt::format("{} ({})", std::strerror(error), name ? name : std::to_string(error).c_str());
}

std::string parent_of(const std::string& relative_path) {
  auto slash = relative_path.rfind('/');
  return slash == std::string::npos ? std::string() : relative_path.substr(0, slash);
}

std::string leaf_of(const std::string& relative_path) {
  auto slash = relative_path.rfind('/');
  return slash == std::string::npos ? relative_path : relative_path.substr(slash + 1);
}

}  // namespace tfwsl::dataset
