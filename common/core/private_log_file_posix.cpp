#include "common/core/private_log_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace tfwsl {

void create_private_log_file(const std::filesystem::path& path) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0600);
  if (fd >= 0) ::close(fd);
}

void restrict_log_file(std::FILE* file) {
  struct stat st {};
  int fd = file ? ::fileno(file) : -1;
  if (fd >= 0 && ::fstat(fd, &st) == 0 && st.st_uid == ::geteuid() && (st.st_mode & 077) != 0) ::fchmod(fd, 0600);
}

}  // namespace tfwsl
