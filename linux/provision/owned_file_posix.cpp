#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>

#include "linux/provision/owned_file.hpp"

namespace tfwsl::provision {

std::optional<std::string> read_owned_file(const std::filesystem::path& path, std::optional<uid_t> owner,
                                           std::size_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) return std::nullopt;
  struct stat st {};
  std::optional<std::string> out;
  if (::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (!owner || st.st_uid == *owner) &&
      static_cast<std::size_t>(st.st_size) <= max_bytes) {
    std::string text;
    char buf[8192];
    while (text.size() <= max_bytes) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0) break;
      text.append(buf, static_cast<std::size_t>(n));
    }
    if (text.size() <= max_bytes) out = std::move(text);
  }
  ::close(fd);
  return out;
}

}  // namespace tfwsl::provision
