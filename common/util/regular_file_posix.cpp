#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/util/regular_file.hpp"

namespace tfwsl {
namespace {

RegularFileRead failed(FileReadProblem problem, int error) {
  RegularFileRead out;
  out.problem = problem;
  out.why = std::strerror(error);
  return out;
}

// Reads at most max_bytes + 1 bytes: one more than the cap says it is too large.
RegularFileRead read_bounded(int fd, std::uintmax_t max_bytes) {
  RegularFileRead out;
  char buffer[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && (errno == EINTR || errno == EAGAIN)) continue;
    if (n < 0) return failed(FileReadProblem::unreadable, errno);
    if (n == 0) return out;
    out.bytes.append(buffer, static_cast<std::size_t>(n));
    if (out.bytes.size() > max_bytes) {
      out.problem = FileReadProblem::too_large;
      out.size = out.bytes.size();
      out.bytes.clear();
      return out;
    }
  }
}

}  // namespace

const char* file_kind_of(unsigned mode) {
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISCHR(mode) || S_ISBLK(mode)) return "a device";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

RegularFileRead read_regular_file(const std::filesystem::path& path, std::uintmax_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
  if (fd < 0) return failed(errno == ENOENT ? FileReadProblem::missing : FileReadProblem::unreadable, errno);
  struct stat st {};
  RegularFileRead out;
  if (::fstat(fd, &st) != 0) {
    out = failed(FileReadProblem::unreadable, errno);
  } else if (!S_ISREG(st.st_mode)) {
    out.problem = FileReadProblem::not_regular;
    out.kind = file_kind_of(st.st_mode);
  } else if (static_cast<std::uintmax_t>(st.st_size) > max_bytes) {
    out.problem = FileReadProblem::too_large;
    out.size = static_cast<std::uintmax_t>(st.st_size);
  } else {
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    out = read_bounded(fd, max_bytes);
  }
  ::close(fd);
  return out;
}

}  // namespace tfwsl
